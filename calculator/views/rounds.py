from django.shortcuts import render


def round_new(request):
    return render(request, "calculator/round_new.html")

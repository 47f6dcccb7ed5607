from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def home(request):
    return render(request, "calculator/home.html")


@require_GET
def rules(request):
    return render(request, "calculator/rules.html")

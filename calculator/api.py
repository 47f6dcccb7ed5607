from django.http import HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST


@csrf_exempt
@require_POST
def settle(request):
    return HttpResponse(status=501)


@csrf_exempt
@require_POST
def receipt_pdf(request):
    return HttpResponse(status=501)

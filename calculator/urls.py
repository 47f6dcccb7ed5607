from django.urls import path

app_name = "calculator"

urlpatterns: list = []

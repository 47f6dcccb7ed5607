from django.apps import AppConfig


class CalculatorConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "calculator"
    verbose_name = "捉鸡算账"

    def ready(self):
        from . import polls

        polls.connect()  # an evening's writes move its generation, which the polls' answers hold to

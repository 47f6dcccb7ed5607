"""The bench's probe middleware (bench/cluster_settings.py): `X-Bench-Queries`, the database
queries a request made (Django's execute wrapper, so every query the app sends, sessions
included), and `X-Bench-CPU-Us`, the CPU time of the thread that ran it (under the asgi worker
each request's synchronous part runs in a thread of its own), in microseconds."""
import time

from django.db import connection


def probe(get_response):
    def middleware(request):
        queries = 0

        def count(execute, sql, params, many, context):
            nonlocal queries
            queries += 1
            return execute(sql, params, many, context)

        started = time.thread_time_ns()
        with connection.execute_wrapper(count):
            response = get_response(request)
        response["X-Bench-Queries"] = str(queries)
        response["X-Bench-CPU-Us"] = str((time.thread_time_ns() - started) // 1000)
        return response

    return middleware

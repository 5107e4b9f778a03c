# Standard library modules onnxify does not write come from the interpreter's own files: HTTP status
# constants, dates (httpx and huggingface_hub read them at import time). (urllib.parse and
# email.utils import ipaddress, whose IPv6 tables need ints beyond 64 bits: in an export that module
# is an unknown value and URL parsing works, tests/torch/e2e/test_imports.py; `onnxify run` stops.)
import datetime
import http
import string
import textwrap

print(http.HTTPStatus.NOT_FOUND, int(http.HTTPStatus.OK), http.HTTPStatus(404).phrase, http.HTTPMethod.GET)
print(datetime.date(2024, 2, 29) + datetime.timedelta(days=1), datetime.timedelta(hours=25))
print(datetime.datetime(2026, 12, 5, 8, 30).isoformat(), datetime.date(2026, 12, 5).weekday())
print(string.ascii_letters[:5], textwrap.shorten("a b c d e f", width=7))

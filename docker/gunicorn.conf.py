"""gunicorn's settings for the docker stack (and scripts/bench_http.py)."""

bind = "0.0.0.0:8000"
workers = 3
accesslog = "-"

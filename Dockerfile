# The web, worker and beat images of Hand and Foot League.
FROM python:3.13-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATA_DIR=/app/data

WORKDIR /app
RUN useradd --create-home --uid 1000 league
COPY pyproject.toml README.md ./
COPY config ./config
COPY core ./core
COPY handfoot ./handfoot
COPY web ./web
COPY jobs ./jobs
COPY league ./league
COPY games ./games
COPY analytics ./analytics
COPY notifications ./notifications
COPY site_pages ./site_pages
COPY templates ./templates
COPY static ./static
COPY manage.py ./
# The app runs from /app: its bytecode is compiled here once (PYTHONDONTWRITEBYTECODE keeps
# the processes from writing it): the engine's command line imported in about 14 ms with it,
# 31 ms without (one measurement, 2026-12-03).
RUN pip install . && python -m compileall -q /app && mkdir -p /app/data /app/live && chown -R league /app/data /app/live

USER league
EXPOSE 8000
CMD ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]

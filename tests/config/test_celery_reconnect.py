"""The worker's consumer (config.celery.ReconnectingConsumer) survives the way kombu 5.7 closes a
Redis connection that has died under it: restoring unacknowledged messages through the dead
connection raises AttributeError, which used to end the worker ("Unrecoverable error").
`make bench-faults` shows the same with a real worker and Redis (0 restarts)."""

import types

import pytest

from config.celery import ReconnectingConsumer, app


class DeadConnection:
    """What kombu's Connection does when closed after Redis went away mid-delivery."""

    connection_errors: tuple = (ConnectionError,)
    channel_errors: tuple = ()

    def __init__(self) -> None:
        self.close_calls = 0

    def collect(self, socket_timeout: float | None = None) -> None:
        pass

    def close(self) -> None:
        self.close_calls += 1
        raise AttributeError("'NoneType' object has no attribute 'hostname'")


def consumer_with(connection: DeadConnection) -> ReconnectingConsumer:
    consumer = ReconnectingConsumer.__new__(ReconnectingConsumer)
    consumer.connection = connection
    consumer.app = app
    consumer.qos_global = False
    consumer.pool = types.SimpleNamespace(num_processes=2)
    consumer.prefetch_multiplier = 1
    return consumer


def test_a_connection_that_fails_to_close_does_not_end_the_worker(monkeypatch):
    monkeypatch.setattr("celery.worker.consumer.consumer.bound_open_broker_sockets",
                        lambda *args: None)
    dead = DeadConnection()
    consumer = consumer_with(dead)
    consumer.on_connection_error_after_connected(ConnectionError("Redis went away"))
    assert dead.close_calls == 1  # it was closed (and the failure swallowed)
    assert consumer.connection is None  # and the consumer goes on to reconnect


def test_other_errors_of_close_are_not_hidden(monkeypatch):
    monkeypatch.setattr("celery.worker.consumer.consumer.bound_open_broker_sockets",
                        lambda *args: None)
    dead = DeadConnection()
    dead.close = types.MethodType(lambda self: (_ for _ in ()).throw(KeyError("x")), dead)
    with pytest.raises(KeyError):
        consumer_with(dead).on_connection_error_after_connected(ConnectionError("gone"))


def test_reconnecting_waits_at_most_two_seconds_between_tries():
    calls = {}

    class Conn:
        def ensure_connection(self, *args, **kwargs):
            calls.update(kwargs)
            return self

    consumer = ReconnectingConsumer.__new__(ReconnectingConsumer)
    consumer.app = app
    consumer.first_connection_attempt = False
    consumer.broker_connection_retry_attempt = 0
    consumer.ensure_connected(Conn())
    assert calls["interval_max"] <= 2
    assert app.conf.broker_connection_max_retries is None  # for ever

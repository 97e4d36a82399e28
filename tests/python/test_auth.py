"""PasswordAuthenticator and CassandraAuthorizer through the Python driver (PlainTextAuthProvider), on a node
started by bin/charybdis: the default superuser, a role created with CQL, Cassandra's messages for bad passwords,
permissions enforced, and roles kept over a restart of the process."""

import pytest

from conftest import connect, unique_name

AUTH_ARGS = ["-Dcharybdis.authenticator=PasswordAuthenticator", "-Dcharybdis.authorizer=CassandraAuthorizer"]


def login(node, user, password, **kwargs):
    from cassandra.auth import PlainTextAuthProvider
    return connect(node, auth_provider=PlainTextAuthProvider(username=user, password=password), **kwargs)


def login_error(node, user, password):
    from cassandra.cluster import NoHostAvailable
    with pytest.raises(NoHostAvailable) as failure:
        with login(node, user, password):
            pass
    return next(iter(failure.value.errors.values()))


def test_roles_log_in_permissions_apply_and_survive_a_restart(node_factory):
    from cassandra import Unauthorized
    from cassandra.auth import PlainTextAuthProvider  # noqa: F401 (the driver's own provider is what is tested)

    node = node_factory(extra_args=AUTH_ARGS).start()
    ks = unique_name("auth")
    with login(node, "cassandra", "cassandra") as admin:
        admin.execute(f"CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}")
        admin.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text)")
        admin.execute(f"INSERT INTO {ks}.t (k, v) VALUES (1, 'one')")
        admin.execute("CREATE ROLE app WITH PASSWORD = 'app_pw' AND LOGIN = true")
        admin.execute(f"GRANT SELECT ON KEYSPACE {ks} TO app")

    with login(node, "app", "app_pw") as app:
        assert app.execute(f"SELECT v FROM {ks}.t WHERE k = 1").one().v == "one"
        with pytest.raises(Unauthorized) as denied:
            app.execute(f"INSERT INTO {ks}.t (k, v) VALUES (2, 'two')")
        assert f"User app has no MODIFY permission on <table {ks}.t> or any of its parents" in str(denied.value)

    error = login_error(node, "app", "wrong")
    assert "Provided username app and/or password are incorrect" in str(error)

    node.stop()
    node.start()

    with login(node, "app", "app_pw") as app:
        assert app.execute(f"SELECT v FROM {ks}.t WHERE k = 1").one().v == "one"
    with login(node, "cassandra", "cassandra") as admin:
        roles = {r.role: (r.super, r.login) for r in admin.execute("LIST ROLES")}
        assert roles == {"app": (False, True), "cassandra": (True, True)}


def test_no_credentials_no_session(node_factory):
    from cassandra.cluster import NoHostAvailable

    node = node_factory(extra_args=AUTH_ARGS).start()
    with pytest.raises(NoHostAvailable):
        with connect(node):
            pass

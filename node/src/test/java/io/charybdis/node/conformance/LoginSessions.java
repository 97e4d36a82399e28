package io.charybdis.node.conformance;

import com.datastax.oss.driver.api.core.CqlSession;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sessions of one topic: the default one, and one per role named by {@code @login}, opened at its first use and
 * closed with the topic. Recorder and test both run statements through this, so both log in the same way.
 */
final class LoginSessions implements AutoCloseable {
    private final String host;
    private final int port;
    private final CqlSession main;
    private final Map<Corpus.Login, CqlSession> byLogin = new LinkedHashMap<>();

    LoginSessions(String host, int port, CqlSession main) {
        this.host = host;
        this.port = port;
        this.main = main;
    }

    CqlSession sessionFor(Corpus.Statement st) {
        if (st.login() == null) {
            return main;
        }
        return byLogin.computeIfAbsent(st.login(), l -> Sessions.open(host, port, l.user(), l.password()));
    }

    @Override
    public void close() {
        byLogin.values().forEach(CqlSession::close);
        byLogin.clear();
    }
}

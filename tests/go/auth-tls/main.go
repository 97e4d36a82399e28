// Command auth-tls connects to a node with gocql as an application would, with PasswordAuthenticator credentials
// and, when -ca is given, over TLS with the server's certificate verified against that CA (and its host name), and
// with a client certificate when -cert/-key are given. It then makes a round trip: a keyspace, a table, a write
// and the read of it back.
//
// With -expect-refused it checks the opposite: that the session cannot be opened (a plain-text client on a port
// that requires TLS, a client without the certificate the node requires, wrong credentials).
//
// Exit status: 0 when the expectation held, 1 when it did not, 2 on bad arguments.
package main

import (
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gocql/gocql"
)

func main() {
	host := flag.String("host", "127.0.0.1", "contact point")
	port := flag.Int("port", 9042, "native port")
	user := flag.String("user", "", "role name for PasswordAuthenticator (none: no credentials)")
	password := flag.String("password", "", "password of -user")
	ca := flag.String("ca", "", "PEM file of the CA that signed the node's certificate (none: plain text)")
	cert := flag.String("cert", "", "PEM file of the client certificate chain (TLS only)")
	key := flag.String("key", "", "PEM file of the client private key (TLS only)")
	keyspace := flag.String("keyspace", "gocql_auth_tls", "keyspace the round trip creates")
	expectRefused := flag.Bool("expect-refused", false, "succeed only when no session can be opened")
	flag.Parse()

	cluster := gocql.NewCluster(*host)
	cluster.Port = *port
	cluster.ProtoVersion = 4
	cluster.Timeout = 10 * time.Second
	cluster.ConnectTimeout = 10 * time.Second
	cluster.DisableInitialHostLookup = true // one node; its peers table is empty either way
	if *user != "" {
		cluster.Authenticator = gocql.PasswordAuthenticator{Username: *user, Password: *password,
			AllowedAuthenticators: []string{"org.apache.cassandra.auth.PasswordAuthenticator"}}
	}
	if *ca != "" {
		config, err := tlsConfig(*host, *ca, *cert, *key)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		cluster.SslOpts = &gocql.SslOptions{Config: config, EnableHostVerification: true}
	}

	session, err := cluster.CreateSession()
	if *expectRefused {
		if err == nil {
			session.Close()
			fmt.Println("FAIL: a session was opened where the node should have refused it")
			os.Exit(1)
		}
		fmt.Printf("refused as expected: %v\n", err)
		return
	}
	if err != nil {
		fmt.Printf("FAIL: no session: %v\n", err)
		os.Exit(1)
	}
	defer session.Close()
	if err := roundTrip(session, *keyspace); err != nil {
		fmt.Printf("FAIL: %v\n", err)
		os.Exit(1)
	}
	fmt.Println("round trip: ok")
}

func tlsConfig(host, caFile, certFile, keyFile string) (*tls.Config, error) {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, fmt.Errorf("ca=%s: %w", caFile, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("ca=%s: no certificate in it", caFile)
	}
	config := &tls.Config{RootCAs: pool, ServerName: host, MinVersion: tls.VersionTLS12}
	if certFile != "" {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("cert=%s key=%s: %w", certFile, keyFile, err)
		}
		config.Certificates = []tls.Certificate{pair}
	}
	return config, nil
}

func roundTrip(session *gocql.Session, keyspace string) error {
	statements := []string{
		"CREATE KEYSPACE IF NOT EXISTS " + keyspace +
			" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
		"CREATE TABLE IF NOT EXISTS " + keyspace + ".t (k int PRIMARY KEY, v text)",
	}
	for _, s := range statements {
		if err := session.Query(s).Exec(); err != nil {
			return fmt.Errorf("%s: %w", strings.SplitN(s, " WITH", 2)[0], err)
		}
	}
	if err := session.Query("INSERT INTO "+keyspace+".t (k, v) VALUES (?, ?)", 1, "through gocql").Exec(); err != nil {
		return fmt.Errorf("insert: %w", err)
	}
	var v string
	if err := session.Query("SELECT v FROM "+keyspace+".t WHERE k = ?", 1).Scan(&v); err != nil {
		return fmt.Errorf("select: %w", err)
	}
	if v != "through gocql" {
		return fmt.Errorf("select: read %q, wrote %q", v, "through gocql")
	}
	var name string
	if err := session.Query("SELECT role FROM system_auth.roles WHERE role = ?", "cassandra").Scan(&name); err != nil {
		return fmt.Errorf("read of system_auth.roles: %w", err)
	}
	return nil
}

// Command lwt-linearizability records a history of lightweight transactions on a few registers, sent through gocql
// by several concurrent clients, and checks it with Porcupine: exit status 0 when the history is linearizable,
// 1 when it is not (the history is printed), 2 when the run itself failed or recorded too little to mean anything.
//
// Each register is a row (k int PRIMARY KEY, v int) of a keyspace with replication factor 3. Operations:
//   - read:  SELECT v ... at SERIAL;
//   - write: UPDATE ... SET v = ? IF EXISTS;
//   - cas:   UPDATE ... SET v = ? IF v = ?.
//
// An operation that failed before reaching any replica (Unavailable) is left out; one whose outcome is unknown
// (a timeout, a broken connection) may have taken effect at any time after it started, so it is recorded as
// returning at the end of the history with an unknown result, which the model accepts either way.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/gocql/gocql"
)

type input struct {
	Op   string `json:"op"` // read, write, cas
	Key  int    `json:"key"`
	From int    `json:"from"`
	To   int    `json:"to"`
}

type output struct {
	Unknown bool `json:"unknown"`
	Applied bool `json:"applied"` // write, cas
	Value   int  `json:"value"`   // read
}

func main() {
	hosts := flag.String("hosts", "127.0.0.1", "contact points, comma separated")
	port := flag.Int("port", 9042, "native port of every host")
	keyspace := flag.String("keyspace", "lwt", "keyspace to create (replication factor 3)")
	clients := flag.Int("clients", 6, "concurrent clients")
	keys := flag.Int("keys", 3, "registers")
	duration := flag.Duration("duration", 20*time.Second, "how long to run operations")
	minOk := flag.Int("min-ok", 50, "fewer successful operations than this fails the run")
	flag.Parse()

	cluster := gocql.NewCluster(strings.Split(*hosts, ",")...)
	cluster.Port = *port
	cluster.Timeout = 3 * time.Second
	cluster.ConnectTimeout = 5 * time.Second
	cluster.Consistency = gocql.Quorum
	cluster.SerialConsistency = gocql.Serial
	cluster.RetryPolicy = nil
	cluster.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy())
	session, err := cluster.CreateSession()
	if err != nil {
		fail("connect: %v", err)
	}
	defer session.Close()

	table := *keyspace + ".registers"
	if err := session.Query("CREATE KEYSPACE IF NOT EXISTS " + *keyspace +
		" WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}").Exec(); err != nil {
		fail("create keyspace: %v", err)
	}
	if err := session.Query("CREATE TABLE IF NOT EXISTS " + table + " (k int PRIMARY KEY, v int)").Exec(); err != nil {
		fail("create table: %v", err)
	}
	if err := session.AwaitSchemaAgreement(context.Background()); err != nil {
		fail("schema agreement: %v", err)
	}
	for k := 0; k < *keys; k++ {
		if err := retry(func() error {
			_, err := session.Query("INSERT INTO "+table+" (k, v) VALUES (?, 0) IF NOT EXISTS", k).
				MapScanCAS(map[string]interface{}{})
			return err
		}); err != nil {
			fail("initial value of register %d: %v", k, err)
		}
	}

	start := time.Now()
	var mu sync.Mutex
	var history []porcupine.Operation
	counts := map[string]int{}
	var wg sync.WaitGroup
	for c := 0; c < *clients; c++ {
		wg.Add(1)
		go func(client int) {
			defer wg.Done()
			rnd := rand.New(rand.NewSource(int64(client) + time.Now().UnixNano()))
			for time.Since(start) < *duration {
				in := input{Key: rnd.Intn(*keys), From: rnd.Intn(5), To: rnd.Intn(5)}
				switch rnd.Intn(3) {
				case 0:
					in.Op = "read"
				case 1:
					in.Op = "write"
				default:
					in.Op = "cas"
				}
				call := time.Since(start).Nanoseconds()
				out, keep := run(session, table, in)
				ret := time.Since(start).Nanoseconds()
				mu.Lock()
				if !keep {
					counts["failed-before-any-replica"]++
				} else {
					if out.Unknown {
						ret = int64(1) << 62 // may take effect any time after it started
						counts["unknown"]++
					} else {
						counts["ok-"+in.Op]++
					}
					history = append(history, porcupine.Operation{ClientId: client, Input: in, Call: call, Output: out, Return: ret})
				}
				mu.Unlock()
				if !keep || out.Unknown {
					time.Sleep(50 * time.Millisecond)
				}
			}
		}(c)
	}
	wg.Wait()

	ok := counts["ok-read"] + counts["ok-write"] + counts["ok-cas"]
	summary, _ := json.Marshal(counts)
	fmt.Printf("operations: %d recorded, %s\n", len(history), summary)
	if ok < *minOk {
		fail("only %d operations completed (at least %d needed for a meaningful check)", ok, *minOk)
	}
	result, info := porcupine.CheckOperationsVerbose(model(), history, 120*time.Second)
	switch result {
	case porcupine.Ok:
		fmt.Println("linearizable: yes")
	case porcupine.Illegal:
		fmt.Println("linearizable: NO")
		if f, err := os.CreateTemp("", "lwt-history-*.html"); err == nil {
			_ = porcupine.Visualize(model(), info, f)
			fmt.Println("visualization:", f.Name())
			f.Close()
		}
		h, _ := json.Marshal(history)
		fmt.Println(string(h))
		os.Exit(1)
	default:
		fail("the checker timed out")
	}
}

// run executes one operation; keep is false when it certainly did not take effect and observed nothing.
func run(s *gocql.Session, table string, in input) (output, bool) {
	switch in.Op {
	case "read":
		var v int
		err := s.Query("SELECT v FROM "+table+" WHERE k = ?", in.Key).Consistency(gocql.Consistency(gocql.Serial)).Scan(&v)
		if err != nil {
			return output{}, false // a read that failed observed nothing
		}
		return output{Value: v}, true
	case "write":
		applied, err := s.Query("UPDATE "+table+" SET v = ? WHERE k = ? IF EXISTS", in.To, in.Key).
			MapScanCAS(map[string]interface{}{})
		return outcome(applied, err)
	default:
		applied, err := s.Query("UPDATE "+table+" SET v = ? WHERE k = ? IF v = ?", in.To, in.Key, in.From).
			MapScanCAS(map[string]interface{}{})
		return outcome(applied, err)
	}
}

func outcome(applied bool, err error) (output, bool) {
	if err == nil {
		return output{Applied: applied}, true
	}
	var unavailable *gocql.RequestErrUnavailable
	if errors.As(err, &unavailable) {
		return output{}, false // refused before anything was sent to a replica
	}
	return output{Unknown: true}, true
}

func model() porcupine.Model {
	nondeterministic := porcupine.NondeterministicModel{
		Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
			byKey := map[int][]porcupine.Operation{}
			for _, op := range history {
				k := op.Input.(input).Key
				byKey[k] = append(byKey[k], op)
			}
			var out [][]porcupine.Operation
			for _, ops := range byKey {
				out = append(out, ops)
			}
			return out
		},
		Init: func() []interface{} { return []interface{}{0} },
		Step: func(state, in, out interface{}) []interface{} {
			v := state.(int)
			i := in.(input)
			o := out.(output)
			switch i.Op {
			case "read":
				if o.Value == v {
					return []interface{}{v}
				}
				return nil
			case "write":
				if o.Unknown {
					return []interface{}{v, i.To}
				}
				if o.Applied {
					return []interface{}{i.To}
				}
				return nil // the register always exists: IF EXISTS must apply
			default:
				if o.Unknown {
					if v == i.From {
						return []interface{}{v, i.To}
					}
					return []interface{}{v}
				}
				if o.Applied == (v == i.From) {
					if o.Applied {
						return []interface{}{i.To}
					}
					return []interface{}{v}
				}
				return nil
			}
		},
		DescribeOperation: func(in, out interface{}) string {
			i := in.(input)
			o := out.(output)
			r := fmt.Sprintf("applied=%v", o.Applied)
			if o.Unknown {
				r = "unknown"
			} else if i.Op == "read" {
				r = fmt.Sprint(o.Value)
			}
			return fmt.Sprintf("%s(k%d %d->%d) %s", i.Op, i.Key, i.From, i.To, r)
		},
	}
	return nondeterministic.ToModel()
}

func retry(f func() error) error {
	var err error
	for i := 0; i < 20; i++ {
		if err = f(); err == nil {
			return nil
		}
		time.Sleep(500 * time.Millisecond)
	}
	return err
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "lwt-linearizability: "+format+"\n", args...)
	os.Exit(2)
}

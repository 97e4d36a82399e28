package io.charybdis.node.cql.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Several hundred statements in the style of the CQL reference (Cassandra 5.0 docs), each with the AST record it
 * must parse to. Lines read {@code RecordName | statement}.
 */
class CqlCorpusTest {

    static final String CORPUS = """
            UseStatement | USE cycling
            UseStatement | USE "MyKeyspace"
            UseStatement | use ks;
            TruncateStatement | TRUNCATE cycling.user_activity
            TruncateStatement | TRUNCATE TABLE cycling.user_activity
            TruncateStatement | TRUNCATE COLUMNFAMILY t
            CreateKeyspace | CREATE KEYSPACE excelsior WITH replication = {'class': 'SimpleStrategy', 'replication_factor' : 3}
            CreateKeyspace | CREATE KEYSPACE excalibur WITH replication = {'class': 'NetworkTopologyStrategy', 'DC1' : 1, 'DC2' : 3} AND durable_writes = false
            CreateKeyspace | CREATE KEYSPACE IF NOT EXISTS cycling WITH REPLICATION = { 'class' : 'NetworkTopologyStrategy', 'datacenter1' : 1 }
            CreateKeyspace | CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'replication_factor': 3, 'DC2': 0}
            CreateKeyspace | CREATE SCHEMA ks2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': '1'}
            CreateKeyspace | CREATE KEYSPACE ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3/1'}
            AlterKeyspace | ALTER KEYSPACE excelsior WITH replication = {'class': 'SimpleStrategy', 'replication_factor' : 4}
            AlterKeyspace | ALTER KEYSPACE IF EXISTS cycling WITH durable_writes = true
            DropKeyspace | DROP KEYSPACE excelsior
            DropKeyspace | DROP KEYSPACE IF EXISTS cycling
            DropKeyspace | DROP SCHEMA ks
            CreateTable | CREATE TABLE monkey_species (species text PRIMARY KEY, common_name text, population varint, average_size int) WITH comment='Important biological records'
            CreateTable | CREATE TABLE timeline (userid uuid, posted_month int, posted_time uuid, body text, posted_by text, PRIMARY KEY (userid, posted_month, posted_time)) WITH compaction = { 'class' : 'LeveledCompactionStrategy' }
            CreateTable | CREATE TABLE loads (machine inet, cpu int, mtime timeuuid, load float, PRIMARY KEY ((machine, cpu), mtime)) WITH CLUSTERING ORDER BY (mtime DESC)
            CreateTable | CREATE TABLE users (userid text PRIMARY KEY, first_name text, last_name text, emails set<text>, top_scores list<int>, todo map<timestamp, text>)
            CreateTable | CREATE TABLE t (pk int, t int, v text, s text static, PRIMARY KEY (pk, t))
            CreateTable | CREATE TABLE IF NOT EXISTS cycling.cyclist_name (id UUID PRIMARY KEY, lastname text, firstname text)
            CreateTable | CREATE TABLE cycling.cyclist_category (category text, points int, id UUID, lastname text, PRIMARY KEY (category, points)) WITH CLUSTERING ORDER BY (points DESC)
            CreateTable | CREATE TABLE cycling.race_winners (race_name text, race_position int, cyclist_name FROZEN<fullname>, PRIMARY KEY (race_name, race_position))
            CreateTable | CREATE TABLE cycling.route (race_id int, race_name text, point_id int, lat_long tuple<text, tuple<float,float>>, PRIMARY KEY (race_id, point_id))
            CreateTable | CREATE TABLE cycling.comments_vs (record_id timeuuid, id uuid, commenter text, comment text, comment_vector VECTOR <FLOAT, 5>, created_at timestamp, PRIMARY KEY (id, created_at)) WITH CLUSTERING ORDER BY (created_at DESC)
            CreateTable | CREATE TABLE t (a int, b int, c int, d int, PRIMARY KEY ((a, b), c, d)) WITH CLUSTERING ORDER BY (c ASC, d DESC) AND comment = 'x' AND gc_grace_seconds = 0
            CreateTable | CREATE TABLE t (k int PRIMARY KEY, v int) WITH caching = {'keys': 'ALL', 'rows_per_partition': '100'} AND bloom_filter_fp_chance = 0.01
            CreateTable | CREATE TABLE t (k int PRIMARY KEY, v int) WITH compression = {'class': 'LZ4Compressor', 'chunk_length_in_kb': 64} AND speculative_retry = '99PERCENTILE'
            CreateTable | CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c)) WITH COMPACT STORAGE
            CreateTable | CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c)) WITH COMPACT STORAGE AND CLUSTERING ORDER BY (c DESC)
            CreateTable | CREATE TABLE t (k int, v map<text, frozen<list<frozen<set<int>>>>>, PRIMARY KEY (k),)
            CreateTable | CREATE TABLE t (k int PRIMARY KEY, d duration, dt date, tm time, b blob, bo boolean, dc decimal, db double, i inet, s smallint, ti tinyint, vi varint, a ascii, vc varchar, c counter)
            CreateTable | CREATE TABLE t (k int PRIMARY KEY, v 'org.apache.cassandra.db.marshal.BytesType')
            CreateTable | CREATE TABLE t (k int PRIMARY KEY, v ks.my_type, w frozen<ks.my_type>)
            CreateTable | CREATE TABLE t ("Key" int PRIMARY KEY, "Value" text, "select" int)
            CreateTable | CREATE TABLE t (key int PRIMARY KEY, type text, ttl int, writetime int, count int, values int, filtering int, json text, list int, map int, timestamp int, date int, time int)
            CreateTable | CREATE TABLE cycling.cyclist_id (lastname text, firstname text, age int, id UUID, PRIMARY KEY ((lastname, firstname), age))
            CreateTable | CREATE TABLE patients (id timeuuid PRIMARY KEY, name text MASKED WITH mask_inner(1, null), birth date MASKED WITH mask_default())
            CreateTable | CREATE TABLE patients (id timeuuid PRIMARY KEY, name text MASKED WITH DEFAULT, ssn text MASKED WITH mask_replace('****'))
            CreateTable | CREATE TABLE t (k int PRIMARY KEY, v int) WITH cdc = true AND default_time_to_live = 3600 AND memtable_flush_period_in_ms = 0
            CreateTable | CREATE COLUMNFAMILY t (k int PRIMARY KEY)
            CreateTable | CREATE TABLE t (k int PRIMARY KEY, v int) WITH memtable = 'trie' AND extensions = {}
            AlterTable | ALTER TABLE addamsFamily ADD gravesite varchar
            AlterTable | ALTER TABLE cycling.cyclist_races ADD manager UUID
            AlterTable | ALTER TABLE t ADD IF NOT EXISTS (a int, b text static, c list<int>)
            AlterTable | ALTER TABLE t ADD s int static
            AlterTable | ALTER TABLE addamsFamily WITH comment = 'A most excellent and useful table'
            AlterTable | ALTER TABLE t WITH compaction = {'class': 'SizeTieredCompactionStrategy', 'min_threshold': 6} AND gc_grace_seconds = 10
            AlterTable | ALTER TABLE t DROP v
            AlterTable | ALTER TABLE t DROP (v, w) USING TIMESTAMP 1234567890
            AlterTable | ALTER TABLE IF EXISTS t DROP IF EXISTS v
            AlterTable | ALTER TABLE t RENAME a TO b
            AlterTable | ALTER TABLE t RENAME IF EXISTS a TO b AND c TO d
            AlterTable | ALTER TABLE t ALTER v TYPE blob
            AlterTable | ALTER TABLE t DROP COMPACT STORAGE
            AlterTable | ALTER TABLE patients ALTER name MASKED WITH mask_default()
            AlterTable | ALTER TABLE patients ALTER name DROP MASKED
            AlterTable | ALTER TABLE patients ALTER IF EXISTS name MASKED WITH DEFAULT
            AlterTable | ALTER TABLE cycling.comments WITH speculative_retry = '10ms'
            AlterTable | ALTER COLUMNFAMILY t ADD x int
            DropTable | DROP TABLE worldSeriesAttendees
            DropTable | DROP TABLE IF EXISTS cycling.cyclist_name
            CreateType | CREATE TYPE address (street_name text, street_number int, city text, state text, zip int)
            CreateType | CREATE TYPE work_and_home_addresses (home_address address, work_address address)
            CreateType | CREATE TYPE IF NOT EXISTS cycling.fullname (firstname text, lastname text,)
            CreateType | CREATE TYPE ks.t (a frozen<map<text, text>>, b list<frozen<tuple<int, int>>>)
            AlterType | ALTER TYPE address ADD country text
            AlterType | ALTER TYPE IF EXISTS address ADD IF NOT EXISTS country text
            AlterType | ALTER TYPE address RENAME zip TO zipcode AND street_name TO street
            AlterType | ALTER TYPE address ALTER zip TYPE varint
            AlterType | ALTER TYPE cycling.fullname RENAME IF EXISTS middlename TO middle
            DropType | DROP TYPE address
            DropType | DROP TYPE IF EXISTS cycling.basic_info
            CreateIndex | CREATE INDEX userIndex ON NerdMovies (user)
            CreateIndex | CREATE INDEX ON Mutants (abilityId)
            CreateIndex | CREATE INDEX ON users (keys(favs))
            CreateIndex | CREATE INDEX ON users (values(favs))
            CreateIndex | CREATE INDEX ON users (entries(favs))
            CreateIndex | CREATE INDEX ON users (full(frozen_list))
            CreateIndex | CREATE CUSTOM INDEX ON users (email) USING 'path.to.the.IndexClass'
            CreateIndex | CREATE CUSTOM INDEX ON users (email) USING 'path.to.the.IndexClass' WITH OPTIONS = {'storage': '/mnt/ssd/indexes/'}
            CreateIndex | CREATE INDEX IF NOT EXISTS rank_idx ON cycling.rank_by_year_and_name (rank)
            CreateIndex | CREATE INDEX ann_index ON cycling.comments_vs(comment_vector) USING 'sai'
            CreateIndex | CREATE CUSTOM INDEX commenter_idx ON cycling.comments_vs (commenter) USING 'StorageAttachedIndex' WITH OPTIONS = {'case_sensitive': 'false', 'normalize': 'true', 'ascii': 'true'}
            CreateIndex | CREATE INDEX ON t (c1, c2)
            CreateIndex | CREATE INDEX ON t (keys)
            CreateIndex | CREATE INDEX idx ON t ("Mixed")
            DropIndex | DROP INDEX userIndex
            DropIndex | DROP INDEX IF EXISTS cycling.rank_idx
            CreateView | CREATE MATERIALIZED VIEW monkeySpecies_by_population AS SELECT * FROM monkeySpecies WHERE population IS NOT NULL AND species IS NOT NULL PRIMARY KEY (population, species) WITH comment='Allow query by population instead of species'
            CreateView | CREATE MATERIALIZED VIEW IF NOT EXISTS cycling.cyclist_by_age AS SELECT age, cid, birthday, country, name FROM cycling.cyclist_base WHERE age IS NOT NULL AND cid IS NOT NULL PRIMARY KEY (age, cid) WITH CLUSTERING ORDER BY (cid ASC) AND caching = { 'keys' : 'ALL', 'rows_per_partition' : '100' } AND comment = 'Based on table cyclist'
            CreateView | CREATE MATERIALIZED VIEW mv AS SELECT a, b FROM t WHERE a IS NOT NULL AND b IS NOT NULL AND c = 1 PRIMARY KEY ((a, b))
            CreateView | CREATE MATERIALIZED VIEW mv AS SELECT * FROM t PRIMARY KEY (a, b)
            AlterView | ALTER MATERIALIZED VIEW cycling.cyclist_by_age WITH comment = 'A most excellent and useful view' AND bloom_filter_fp_chance = 0.02
            AlterView | ALTER MATERIALIZED VIEW IF EXISTS mv WITH default_time_to_live = 10
            DropView | DROP MATERIALIZED VIEW cycling.cyclist_by_age
            DropView | DROP MATERIALIZED VIEW IF EXISTS mv
            CreateFunction | CREATE OR REPLACE FUNCTION somefunction(somearg int, anotherarg text, complexarg frozen<someUDT>, listarg list<bigint>) RETURNS NULL ON NULL INPUT RETURNS text LANGUAGE java AS $$ return "x"; $$
            CreateFunction | CREATE FUNCTION IF NOT EXISTS akeyspace.fname(someArg int) CALLED ON NULL INPUT RETURNS text LANGUAGE java AS $$ return Integer.toString(someArg); $$
            CreateFunction | CREATE FUNCTION f() CALLED ON NULL INPUT RETURNS int LANGUAGE javascript AS '1'
            CreateFunction | CREATE FUNCTION cycling.left (column TEXT, num int) RETURNS NULL ON NULL INPUT RETURNS text LANGUAGE javascript AS $$ column.substring(0,num) $$
            CreateFunction | CREATE OR REPLACE FUNCTION ks.state(state tuple<int, bigint>, val int) CALLED ON NULL INPUT RETURNS tuple<int, bigint> LANGUAGE java AS 'if (val != null) { state.setInt(0, state.getInt(0)+1); } return state;'
            DropFunction | DROP FUNCTION myfunction
            DropFunction | DROP FUNCTION mykeyspace.afunction
            DropFunction | DROP FUNCTION afunction ( int )
            DropFunction | DROP FUNCTION afunction ( text )
            DropFunction | DROP FUNCTION IF EXISTS f(int, frozen<list<text>>)
            DropFunction | DROP FUNCTION f()
            CreateAggregate | CREATE OR REPLACE AGGREGATE average(int) SFUNC averageState STYPE tuple<int, bigint> FINALFUNC averageFinal INITCOND (0, 0)
            CreateAggregate | CREATE AGGREGATE IF NOT EXISTS cycling.average (int) SFUNC avgState STYPE tuple<int,bigint> FINALFUNC avgFinal INITCOND (0,0)
            CreateAggregate | CREATE AGGREGATE ks.agg(int, text) SFUNC "stateFn" STYPE map<text, int> INITCOND {}
            CreateAggregate | CREATE AGGREGATE agg() SFUNC sf STYPE int
            DropAggregate | DROP AGGREGATE myAggregate
            DropAggregate | DROP AGGREGATE myKeyspace.anAggregate
            DropAggregate | DROP AGGREGATE someAggregate ( int )
            DropAggregate | DROP AGGREGATE IF EXISTS someAggregate ( text, int )
            CreateTrigger | CREATE TRIGGER myTrigger ON myTable USING 'org.apache.cassandra.triggers.InvertedIndex'
            CreateTrigger | CREATE TRIGGER IF NOT EXISTS t1 ON ks.tbl USING 'a.B'
            DropTrigger | DROP TRIGGER myTrigger ON myTable
            DropTrigger | DROP TRIGGER IF EXISTS t1 ON ks.tbl
            SelectStatement | SELECT name, occupation FROM users WHERE userid IN (199, 200, 207)
            SelectStatement | SELECT JSON name, occupation FROM users WHERE userid = 199
            SelectStatement | SELECT name AS user_name, occupation AS user_occupation FROM users
            SelectStatement | SELECT time, value FROM events WHERE event_type = 'myEvent' AND time > '2011-02-03' AND time <= '2012-01-01'
            SelectStatement | SELECT COUNT (*) AS user_count FROM users
            SelectStatement | SELECT COUNT(*) FROM users
            SelectStatement | SELECT count(1) FROM users
            SelectStatement | SELECT * FROM posts WHERE userid = 'john doe' AND (blog_title, posted_at) > ('John''s Blog', '2012-01-01')
            SelectStatement | SELECT * FROM posts WHERE userid = 'john doe' AND (blog_title, posted_at) IN (('John''s Blog', '2012-01-01'), ('Extreme Chess', '2014-06-01'))
            SelectStatement | SELECT * FROM posts WHERE token(userid) > token('tom') AND token(userid) < token('bob')
            SelectStatement | SELECT * FROM users WHERE birth_year = 1981 AND country = 'FR' ALLOW FILTERING
            SelectStatement | SELECT * FROM t WHERE a = 1 AND b > 2 AND b <= 3 ORDER BY b DESC LIMIT 10
            SelectStatement | SELECT * FROM t PER PARTITION LIMIT 2
            SelectStatement | SELECT * FROM t PER PARTITION LIMIT ? LIMIT ?
            SelectStatement | SELECT DISTINCT partition_key FROM t
            SelectStatement | SELECT DISTINCT a, b FROM t WHERE a IN ?
            SelectStatement | SELECT partition_key, clustering, sum(value) FROM t GROUP BY partition_key, clustering
            SelectStatement | SELECT a, max(b) FROM t WHERE a = 1 GROUP BY a, floor(b, 1h)
            SelectStatement | SELECT writetime(v), ttl(v), maxwritetime(w) FROM t
            SelectStatement | SELECT WRITETIME (firstname), TTL(lastname) FROM cycling.cyclist_name
            SelectStatement | SELECT writetime(m['k']), writetime(u.f) FROM t
            SelectStatement | SELECT CAST(count AS int), cast(v as text) FROM t
            SelectStatement | SELECT avg(CAST(count AS double)) FROM t
            SelectStatement | SELECT toJson(v), fromJson(?) FROM t
            SelectStatement | SELECT ks.myfn(a, b), "MyFn"(c) FROM t
            SelectStatement | SELECT token(a), blobAsText(b) FROM t
            SelectStatement | SELECT m['key'], m['a'..'c'], l[1..], l[..3], s[1] FROM t
            SelectStatement | SELECT u.street, u.city.name FROM t
            SelectStatement | SELECT a + b, a - b, a * 2, a / 2, a % 2, -a, (a + b) * c FROM t
            SelectStatement | SELECT (int) 1, (text) ?, [a, b], {a, b}, {a: 1, b: 2}, (a, b), {} FROM t
            SelectStatement | SELECT 1, 'a', true, null, 1.5, 0xff, 1h FROM t
            SelectStatement | SELECT now() - 1d, currentTimestamp() FROM t
            SelectStatement | SELECT * FROM t WHERE m CONTAINS 'x' AND m CONTAINS KEY 'k' ALLOW FILTERING
            SelectStatement | SELECT * FROM t WHERE m['k'] = 'v' ALLOW FILTERING
            SelectStatement | SELECT * FROM t WHERE v LIKE 'abc%'
            SelectStatement | SELECT * FROM t WHERE v != 3 ALLOW FILTERING
            SelectStatement | SELECT * FROM t WHERE expr(my_index, 'query text')
            SelectStatement | SELECT * FROM cycling.comments_vs ORDER BY comment_vector ANN OF [0.15, 0.1, 0.1, 0.35, 0.55] LIMIT 3
            SelectStatement | SELECT * FROM t ORDER BY v ANN OF ? LIMIT 3
            SelectStatement | SELECT similarity_cosine(comment_vector, [0.2, 0.15, 0.3, 0.2, 0.05]) FROM cycling.comments_vs
            SelectStatement | SELECT * FROM t WHERE (a, b, c) >= (1, 2, 3) AND (a, b) < (5, 6)
            SelectStatement | SELECT * FROM t WHERE (a, b) = ? AND (c, d) IN ? AND (e, f) IN (?, ?) AND (g) IN ()
            SelectStatement | SELECT * FROM t WHERE a IN () AND b IN :list
            SelectStatement | SELECT * FROM t WHERE token(a, b) >= ? AND token(a, b) < :end
            SelectStatement | SELECT * FROM t WHERE ((a = 1)) AND (b = 2)
            SelectStatement | SELECT * FROM t WHERE a = 1 AND b IS NOT NULL
            SelectStatement | SELECT * FROM t WHERE a NOT IN (1, 2) AND b NOT CONTAINS 3 AND c NOT CONTAINS KEY 4 ALLOW FILTERING
            SelectStatement | SELECT * FROM t WHERE a BETWEEN 1 AND 5 AND b = 2
            SelectStatement | SELECT * FROM t WHERE a = (int) 3 AND b = [1, 2] AND c = {1, 2} AND d = {'a': 1} AND e = (1, 'x') AND f = {street: 'x', number: 3}
            SelectStatement | SELECT * FROM t WHERE a = blobAsBigint(0x0000000000000003) AND b = now()
            SelectStatement | SELECT * FROM t WHERE a = 1 + 2 * 3 AND b = -?
            SelectStatement | SELECT "Name", "quoted""col" FROM "Ks"."Table"
            SelectStatement | SELECT key, type, ttl, count, values, json, distinct, as FROM t
            SelectStatement | SELECT json FROM t
            SelectStatement | SELECT distinct FROM t
            SelectStatement | SELECT JSON DISTINCT a FROM t
            SelectStatement | SELECT * FROM t WHERE "" = 1
            SelectStatement | SELECT * FROM t LIMIT -1
            SelectStatement | SELECT mask_inner(name, 1, null), mask_default(b) FROM patients
            SelectStatement | SELECT a FROM t WHERE k = :k AND c > :"C" ORDER BY c ASC
            SelectStatement | SELECT * FROM t WHERE a = 1 ORDER BY b, c DESC PER PARTITION LIMIT 1 LIMIT 5 ALLOW FILTERING
            InsertStatement | INSERT INTO NerdMovies (movie, director, main_actor, year) VALUES ('Serenity', 'Joss Whedon', 'Nathan Fillion', 2005) USING TTL 86400
            InsertStatement | INSERT INTO t (a, b) VALUES (1, 2) IF NOT EXISTS
            InsertStatement | INSERT INTO t (a, b) VALUES (?, ?) USING TIMESTAMP ? AND TTL ?
            InsertStatement | INSERT INTO t (a, b) VALUES (:a, :b) IF NOT EXISTS USING TTL 3 AND TIMESTAMP 123456789
            InsertStatement | INSERT INTO users (userid, first_name, last_name, emails) VALUES ('frodo', 'Frodo', 'Baggins', {'f@baggins.com', 'baggins@gmail.com'})
            InsertStatement | INSERT INTO users (userid, todo) VALUES ('frodo', {'2012-9-24' : 'enter mordor', '2014-10-2 12:00' : 'throw ring into mount doom'})
            InsertStatement | INSERT INTO users (userid, top_places) VALUES ('frodo', ['rivendell', 'rohan'])
            InsertStatement | INSERT INTO user (name, addresses) VALUES ('z3 Pr3z1den7', {'home' : {street: '1600 Pennsylvania Ave NW', city: 'Washington', zip: '20500', phones: {'cell' : {country_code: 1, number: '202 456-1111'}, 'landline' : {country_code: 1, number: '...'}}}, 'work' : {street: '1600 Pennsylvania Ave NW', city: 'Washington', zip: '20500', phones: {'fax' : {country_code: 1, number: '...'}}}})
            InsertStatement | INSERT INTO durations (event, duration) VALUES ('ev1', 12h)
            InsertStatement | INSERT INTO durations (event, duration) VALUES ('ev2', 'P12H')
            InsertStatement | INSERT INTO durations (event, duration) VALUES ('ev3', P0000-00-00T89:09:09)
            InsertStatement | INSERT INTO durations (event, duration) VALUES ('ev4', 1y2mo3w4d5h6m7s8ms9us10ns)
            InsertStatement | INSERT INTO t (k, u, h, f, b) VALUES (50554d6e-29bb-11e5-b345-feff819cdc9f, e7cd5752-bc0d-4157-a80f-7523add8dbcd, 0xcafebabe, -1.5e-3, false)
            InsertStatement | INSERT INTO t (k, v) VALUES (1, NaN)
            InsertStatement | INSERT INTO t (k, v) VALUES (1, -Infinity)
            InsertStatement | INSERT INTO t (k, v) VALUES (1, [[1, 2], [3]])
            InsertStatement | INSERT INTO cycling.comments_vs (record_id, id, created_at, comment, commenter, comment_vector) VALUES (now(), e7ae5cf3-d358-4d99-b900-85902fda9bb0, '2017-02-14 12:43:20-0800', 'Raining too hard should have postponed', 'Alex', [0.45, 0.09, 0.01, 0.2, 0.11])
            InsertStatement | INSERT INTO t (k, v) VALUES (1, $$it's a 'dollar' string$$)
            InsertStatement | INSERT INTO t (k, v) VALUES (1, (text) 'x')
            InsertStatement | INSERT INTO t (k, v) VALUES (1, ?) USING TTL :ttl
            InsertJsonStatement | INSERT INTO mytable JSON '{ "\\"myKey\\"": 0, "value": 0}'
            InsertJsonStatement | INSERT INTO mytable JSON '{"myKey": 0}' DEFAULT UNSET
            InsertJsonStatement | INSERT INTO mytable JSON '{"myKey": 0}' DEFAULT NULL IF NOT EXISTS USING TTL 10
            InsertJsonStatement | INSERT INTO mytable JSON ?
            InsertJsonStatement | INSERT INTO mytable JSON :json
            UpdateStatement | UPDATE NerdMovies USING TTL 400 SET director = 'Joss Whedon', main_actor = 'Nathan Fillion', year = 2005 WHERE movie = 'Serenity'
            UpdateStatement | UPDATE UserActions SET total = total + 2 WHERE user = B70DE1D0-9908-4AE3-BE34-5573E5B09F14 AND action = 'click'
            UpdateStatement | UPDATE users SET emails = emails + {'fb@friendsofmordor.org'} WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET emails = emails - {'fb@friendsofmordor.org'} WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET emails = {} WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET todo = { '2012-9-24' : 'enter mordor', '2014-10-2 12:00' : 'throw ring into mount doom' } WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET todo['2014-10-2 12:00'] = 'throw my precious into mount doom' WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET todo = todo + { '2013-9-22' : 'enter mordor' } WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET todo = todo - {'2012-9-24', '2013-9-22'} WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET top_places = [ 'the shire' ] + top_places WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET top_places = top_places + [ 'mordor' ] WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET top_places[1] = 'riddermark' WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET scores = scores - [ 12, 21 ] WHERE userid = 'frodo'
            UpdateStatement | UPDATE users SET total += 1, emails -= {'x'} WHERE userid = 'frodo'
            UpdateStatement | UPDATE cycling.cyclist_stats SET basics.birthday = '2000-12-12' WHERE id = 220844bf-4860-49d6-9a4b-6b5d3a79cbfb
            UpdateStatement | UPDATE t SET v = 3 WHERE k = 1 IF EXISTS
            UpdateStatement | UPDATE t SET v = 3 WHERE k = 1 IF v = 2 AND w > 1 AND m['k'] = 'v' AND u.f != 1 AND x IN (1, 2)
            UpdateStatement | UPDATE t SET v = 3 WHERE k = 1 IF l CONTAINS 1 AND m CONTAINS KEY 'k' AND m['a'] IN ? AND u.f IN (1)
            UpdateStatement | UPDATE t USING TIMESTAMP 123 AND TTL 10 SET v = ? WHERE k = ? AND c IN (?, ?)
            UpdateStatement | UPDATE t SET c = c - 1 WHERE k = 1
            UpdateStatement | UPDATE t SET "C" = "C" + 1, "D"['x'] = 1 WHERE k = 1
            UpdateStatement | UPDATE t SET v = now() + 1d WHERE k = 1
            UpdateStatement | UPDATE t SET exists = 1 WHERE k = 1 IF exists = 2
            DeleteStatement | DELETE FROM NerdMovies USING TIMESTAMP 1240003134 WHERE movie = 'Serenity'
            DeleteStatement | DELETE phone FROM Users WHERE userid IN (C73DE1D3-AF08-40F3-B124-3FF3E5109F22, B70DE1D0-9908-4AE3-BE34-5573E5B09F14)
            DeleteStatement | DELETE todo['2012-9-24'] FROM users WHERE userid = 'frodo'
            DeleteStatement | DELETE scores[1] FROM users WHERE userid = 'frodo'
            DeleteStatement | DELETE basics.birthday, a, b FROM t WHERE k = 1
            DeleteStatement | DELETE FROM t WHERE k = 1 IF EXISTS
            DeleteStatement | DELETE FROM t WHERE k = 1 IF v = 3 AND w = null
            DeleteStatement | DELETE FROM t WHERE k = 1 AND c > 3 AND c < 10
            DeleteStatement | DELETE FROM t USING TIMESTAMP ? WHERE k = ?
            BatchStatement | BEGIN BATCH INSERT INTO users (userid, password, name) VALUES ('user2', 'ch@ngem3b', 'second user'); UPDATE users SET password = 'ps22dhds' WHERE userid = 'user3'; INSERT INTO users (userid, password) VALUES ('user4', 'ch@ngem3c'); DELETE name FROM users WHERE userid = 'user1'; APPLY BATCH
            BatchStatement | BEGIN UNLOGGED BATCH INSERT INTO t (a) VALUES (1) INSERT INTO t (a) VALUES (2) APPLY BATCH
            BatchStatement | BEGIN COUNTER BATCH UPDATE c SET n = n + 1 WHERE k = 1; UPDATE c SET n = n - 1 WHERE k = 2; APPLY BATCH
            BatchStatement | BEGIN BATCH USING TIMESTAMP 123 INSERT INTO t (a) VALUES (?); APPLY BATCH
            BatchStatement | BEGIN BATCH APPLY BATCH
            BatchStatement | BEGIN BATCH INSERT INTO cycling.cyclist_expenses (cyclist_name, balance) VALUES ('Vera ADRIAN', 0) IF NOT EXISTS; INSERT INTO cycling.cyclist_expenses (cyclist_name, expense_id, amount, description, paid) VALUES ('Vera ADRIAN', 1, 7.95, 'Breakfast', false); APPLY BATCH
            CreateRole | CREATE ROLE new_role
            CreateRole | CREATE ROLE alice WITH PASSWORD = 'password_a' AND LOGIN = true
            CreateRole | CREATE ROLE bob WITH PASSWORD = 'password_b' AND LOGIN = true AND SUPERUSER = true
            CreateRole | CREATE ROLE carlos WITH OPTIONS = { 'custom_option1' : 'option1_value', 'custom_option2' : 99 }
            CreateRole | CREATE ROLE alice WITH PASSWORD = 'password_a' AND LOGIN = true AND ACCESS TO DATACENTERS {'DC1', 'DC3'}
            CreateRole | CREATE ROLE alice WITH PASSWORD = 'password_a' AND LOGIN = true AND ACCESS TO ALL DATACENTERS
            CreateRole | CREATE ROLE IF NOT EXISTS new_role
            CreateRole | CREATE ROLE 'Mixed Case' WITH LOGIN = false
            CreateRole | CREATE ROLE "Quoted" WITH HASHED PASSWORD = '$2a$10$abc'
            CreateRole | CREATE ROLE r WITH ACCESS FROM CIDRS {'region1'} AND ACCESS TO ALL DATACENTERS
            CreateRole | CREATE ROLE r WITH ACCESS FROM ALL CIDRS
            AlterRole | ALTER ROLE bob WITH PASSWORD = 'PASSWORD_B' AND SUPERUSER = false
            AlterRole | ALTER ROLE IF EXISTS bob WITH LOGIN = false
            AlterRole | ALTER ROLE bob WITH ACCESS TO DATACENTERS {'DC2'}
            DropRole | DROP ROLE alice
            DropRole | DROP ROLE IF EXISTS bob
            GrantRole | GRANT report_writer TO alice
            GrantRole | GRANT "Admins" TO 'bob'
            RevokeRole | REVOKE report_writer FROM alice
            ListRoles | LIST ROLES
            ListRoles | LIST ROLES OF alice
            ListRoles | LIST ROLES OF bob NORECURSIVE
            CreateUser | CREATE USER alice WITH PASSWORD 'password_a' SUPERUSER
            CreateUser | CREATE USER bob WITH PASSWORD 'password_b' NOSUPERUSER
            CreateUser | CREATE USER IF NOT EXISTS 'carol'
            CreateUser | CREATE USER dave WITH HASHED PASSWORD '$2a$10$xyz'
            AlterUser | ALTER USER alice WITH PASSWORD 'PASSWORD_A'
            AlterUser | ALTER USER bob SUPERUSER
            AlterUser | ALTER USER IF EXISTS bob NOSUPERUSER
            DropUser | DROP USER alice
            DropUser | DROP USER IF EXISTS bob
            ListUsers | LIST USERS
            GrantPermissions | GRANT SELECT ON ALL KEYSPACES TO data_reader
            GrantPermissions | GRANT MODIFY ON KEYSPACE keyspace1 TO data_writer
            GrantPermissions | GRANT DROP ON keyspace1.table1 TO schema_owner
            GrantPermissions | GRANT EXECUTE ON FUNCTION keyspace1.user_function( int ) TO report_writer
            GrantPermissions | GRANT DESCRIBE ON ALL ROLES TO role_admin
            GrantPermissions | GRANT ALL PERMISSIONS ON ALL FUNCTIONS IN KEYSPACE ks TO r
            GrantPermissions | GRANT ALL ON ALL TABLES IN KEYSPACE cycling TO coach
            GrantPermissions | GRANT ALTER ON ALL FUNCTIONS TO r
            GrantPermissions | GRANT AUTHORIZE ON ROLE bob TO admin
            GrantPermissions | GRANT SELECT, MODIFY ON TABLE ks.t TO r
            GrantPermissions | GRANT SELECT PERMISSION, MODIFY PERMISSION ON t TO r
            GrantPermissions | GRANT UNMASK ON ALL KEYSPACES TO privileged
            GrantPermissions | GRANT SELECT_MASKED ON KEYSPACE ks TO r
            GrantPermissions | GRANT SELECT ON ALL MBEANS TO jmx
            GrantPermissions | GRANT EXECUTE ON MBEAN 'org.apache.cassandra.db:type=Tables,*' TO jmx
            GrantPermissions | GRANT CREATE ON ALL KEYSPACES TO schema_owner
            RevokePermissions | REVOKE SELECT ON ALL KEYSPACES FROM data_reader
            RevokePermissions | REVOKE MODIFY ON KEYSPACE keyspace1 FROM data_writer
            RevokePermissions | REVOKE EXECUTE ON FUNCTION keyspace1.user_function( int ) FROM report_writer
            RevokePermissions | REVOKE UNMASK ON TABLE patients FROM privileged
            ListPermissions | LIST ALL PERMISSIONS OF alice
            ListPermissions | LIST ALL PERMISSIONS ON keyspace1.table1 OF bob
            ListPermissions | LIST SELECT PERMISSIONS OF carlos
            ListPermissions | LIST ALL
            ListPermissions | LIST MODIFY ON KEYSPACE ks OF r NORECURSIVE
            AddIdentity | ADD IDENTITY 'spiffe://testdomain.com/testIdentifier/testValue' TO ROLE 'read_only_user'
            AddIdentity | ADD IDENTITY IF NOT EXISTS 'id' TO ROLE r
            DropIdentity | DROP IDENTITY 'spiffe://testdomain.com/testIdentifier/testValue'
            DropIdentity | DROP IDENTITY IF EXISTS 'id'
            DescribeStatement | DESCRIBE CLUSTER
            DescribeStatement | DESCRIBE SCHEMA
            DescribeStatement | DESCRIBE FULL SCHEMA
            DescribeStatement | DESCRIBE KEYSPACES
            DescribeStatement | DESCRIBE KEYSPACE cycling
            DescribeStatement | DESCRIBE ONLY KEYSPACE cycling WITH INTERNALS
            DescribeStatement | DESCRIBE KEYSPACE
            DescribeStatement | DESCRIBE TABLES
            DescribeStatement | DESCRIBE TABLE cycling.cyclist_name
            DescribeStatement | DESCRIBE COLUMNFAMILY t
            DescribeStatement | DESCRIBE TYPES
            DescribeStatement | DESCRIBE TYPE cycling.fullname
            DescribeStatement | DESCRIBE FUNCTIONS
            DescribeStatement | DESCRIBE FUNCTION cycling.left
            DescribeStatement | DESCRIBE AGGREGATES
            DescribeStatement | DESCRIBE AGGREGATE cycling.average
            DescribeStatement | DESCRIBE INDEX cycling.rank_idx
            DescribeStatement | DESCRIBE MATERIALIZED VIEW cycling.cyclist_by_age
            DescribeStatement | DESC cycling.cyclist_name
            DescribeStatement | DESC cycling
            DescribeStatement | desc table t with internals
            """;

    static Stream<String> corpus() {
        return CORPUS.lines().filter(l -> !l.isBlank());
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void shouldParseToTheExpectedStatement(String line) {
        int bar = line.indexOf(" | ");
        String expected = line.substring(0, bar);
        String cql = line.substring(bar + 3);
        Statement statement = CqlParser.parse(cql);
        assertThat(statement.getClass().getSimpleName()).as(cql).isEqualTo(expected);
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void shouldParseWithTrailingSemicolonCommentsAndOddSpacing(String line) {
        String cql = line.substring(line.indexOf(" | ") + 3);
        Statement plain = CqlParser.parse(cql);
        boolean quotes = cql.contains("'") || cql.contains("\"") || cql.contains("$$");
        String spaced = quotes ? cql : cql.replace(" ", "\n\t ");
        assertThat(CqlParser.parse("/* lead */\n  " + spaced + " ; -- trailing\n")).isEqualTo(plain);
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void shouldParseKeywordsInAnyCase(String line) {
        String cql = line.substring(line.indexOf(" | ") + 3);
        Statement plain = CqlParser.parse(cql);
        if (!cql.contains("'") && !cql.contains("\"") && !cql.contains("$$") && !cql.matches("(?s).*\\bP\\d.*")) {
            assertThat(CqlParser.parse(cql.toUpperCase(java.util.Locale.ROOT)).getClass()).isEqualTo(plain.getClass());
        }
    }

    @org.junit.jupiter.api.Test
    void shouldParseTheWholeCorpusAsOneScript() {
        String script = String.join(";\n", corpus().map(l -> l.substring(l.indexOf(" | ") + 3)).toList());
        assertThat(CqlParser.parseScript(script)).hasSize((int) corpus().count());
    }
}

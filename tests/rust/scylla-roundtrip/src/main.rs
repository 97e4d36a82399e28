//! ScyllaDB's Rust driver against a Charybdis node: the same round trip as the other driver tests (schema,
//! prepared writes, paging, metadata) and its shard awareness. The driver sees ScyllaDB's protocol extension, so it
//! prepares its schema queries with `USING TIMEOUT`, reads `system_schema.scylla_*`, waits for schema agreement
//! and opens a connection per shard through the shard-aware port. Exits non-zero on the first failed check.

use futures::TryStreamExt;
use scylla::client::session::Session;
use scylla::client::session_builder::SessionBuilder;
use scylla::statement::Statement;
use std::error::Error;
use std::time::{SystemTime, UNIX_EPOCH};

type Res<T> = Result<T, Box<dyn Error>>;

fn check(ok: bool, what: &str) -> Res<()> {
    if ok {
        Ok(())
    } else {
        Err(format!("check failed: {what}").into())
    }
}

#[tokio::main]
async fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().collect();
    let (host, port, shards): (&str, u16, u16) = (&args[1], args[2].parse()?, args[3].parse()?);
    let session: Session = SessionBuilder::new()
        .known_node(format!("{host}:{port}"))
        .build()
        .await?;

    let nanos = SystemTime::now().duration_since(UNIX_EPOCH)?.as_nanos();
    let ks = format!("rust_{}", nanos % 1_000_000_000_000);
    // schema changes: the driver awaits schema agreement after each (system.local's schema_version)
    session
        .query_unpaged(
            format!("CREATE KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}}"),
            &[],
        )
        .await?;
    session
        .query_unpaged(format!("CREATE TABLE {ks}.t (pk int, ck int, v text, PRIMARY KEY (pk, ck))"), &[])
        .await?;
    session.await_schema_agreement().await?;
    session.use_keyspace(&ks, false).await?;

    // prepared writes, one with ScyllaDB's USING TIMEOUT
    let insert = session
        .prepare("INSERT INTO t (pk, ck, v) VALUES (?, ?, ?) USING TIMEOUT 10s")
        .await?;
    for pk in 0..20i32 {
        for ck in 0..50i32 {
            session
                .execute_unpaged(&insert, (pk, ck, format!("v{pk}.{ck}")))
                .await?;
        }
    }

    // reads: one partition through a prepared statement, then the whole table page by page
    let select = session.prepare("SELECT ck, v FROM t WHERE pk = ?").await?;
    let rows: Vec<(i32, String)> = session
        .execute_unpaged(&select, (7i32,))
        .await?
        .into_rows_result()?
        .rows::<(i32, String)>()?
        .collect::<Result<_, _>>()?;
    check(rows.len() == 50, "50 rows in partition 7")?;
    check(
        rows.iter().enumerate().all(|(i, (ck, v))| *ck == i as i32 && *v == format!("v7.{i}")),
        "partition 7 in clustering order",
    )?;
    let mut scan = session
        .prepare(Statement::new("SELECT pk, ck FROM t USING TIMEOUT 30s").with_page_size(100))
        .await?;
    scan.set_page_size(100);
    let all: Vec<(i32, i32)> = session
        .execute_iter(scan, &[])
        .await?
        .rows_stream::<(i32, i32)>()?
        .try_collect()
        .await?;
    check(all.len() == 1000, &format!("1000 rows paged, got {}", all.len()))?;
    let mut sorted = all.clone();
    sorted.sort();
    sorted.dedup();
    check(sorted.len() == 1000, "no row twice across pages")?;

    // schema metadata, as the driver built it from system_schema and system_schema.scylla_tables
    session.refresh_metadata().await?;
    let state = session.get_cluster_state();
    let keyspace = state.get_keyspace(&ks).ok_or("keyspace missing from metadata")?;
    let table = keyspace.tables.get("t").ok_or("table missing from metadata")?;
    check(table.partition_key == vec!["pk".to_string()], "partition key")?;
    check(table.clustering_key == vec!["ck".to_string()], "clustering key")?;
    check(table.partitioner.is_none(), "default partitioner")?;
    check(!keyspace.tablet_based, "vnode keyspace")?;

    // shard awareness: the node is sharded as it says, and tokens map to shards as the node maps them
    let nodes = state.get_nodes_info();
    check(nodes.len() == 1, "one node")?;
    let sharder = nodes[0].sharder().ok_or("no sharder: the driver did not see the node as sharded")?;
    check(sharder.nr_shards.get() == shards, &format!("{shards} shards, got {}", sharder.nr_shards.get()))?;
    check(sharder.msb_ignore == 12, "ignore_msb 12")?;
    let mut seen = std::collections::HashSet::new();
    for pk in 0..20i32 {
        let token = insert.calculate_token(&(pk, 0i32, ""))?.ok_or("no token")?;
        let replicas = state.get_token_endpoints(&ks, "t", token);
        check(replicas.len() == 1, "one replica")?;
        check(replicas[0].1 == sharder.shard_of(token), "replica shard is the token's shard")?;
        seen.insert(replicas[0].1);
    }
    check(seen.len() == shards as usize, "keys on every shard")?;
    println!("scylla rust driver round trip: ok");
    Ok(())
}

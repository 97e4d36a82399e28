import json, sys
from cassandra.cluster import Cluster
c = Cluster(['127.0.0.2'], port=9042)
s = c.connect()
out = {}
def conv(v):
    if isinstance(v,(str,int,float,bool,type(None))): return v
    if isinstance(v,(list,tuple)) : return [conv(x) for x in v]
    if hasattr(v,'items'): return {str(k): conv(x) for k,x in v.items()}
    if isinstance(v,(set,frozenset)) or type(v).__name__=='SortedSet': return sorted(conv(x) for x in v)
    return repr(v)
for ks in ['system_schema', 'system_virtual_schema']:
    for t in ['keyspaces','tables','columns','dropped_columns','types','functions','aggregates','indexes','views','triggers','column_masks']:
        q = f"SELECT * FROM {ks}.{t}"
        if t == 'dropped_columns': q = f"SELECT keyspace_name, table_name, column_name, kind, type, toUnixTimestamp(dropped_time) AS dropped_time FROM {ks}.{t}"
        try:
            rows = s.execute(q)
            out[f"{ks}.{t}"] = [{k: conv(v) for k,v in r._asdict().items()} for r in rows]
        except Exception as e:
            out[f"{ks}.{t}"] = str(e)
json.dump(out, open('sysschema.json','w'), indent=1, default=str)
for k,v in out.items(): print(k, len(v) if isinstance(v,list) else v)

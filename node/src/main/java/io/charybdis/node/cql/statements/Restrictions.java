package io.charybdis.node.cql.statements;

import io.charybdis.node.cql.exceptions.InvalidRequestException;
import io.charybdis.node.cql.keys.ClusteringCodec;
import io.charybdis.node.cql.keys.Murmur3;
import io.charybdis.node.cql.keys.PartitionKeyCodec;
import io.charybdis.node.cql.syntax.InValues;
import io.charybdis.node.cql.syntax.Operator;
import io.charybdis.node.cql.syntax.Relation;
import io.charybdis.node.cql.syntax.Term;
import io.charybdis.node.cql.values.BindContext;
import io.charybdis.node.cql.values.BoundValue;
import io.charybdis.node.cql.values.TermBinder;
import io.charybdis.node.cql.values.Values;
import io.charybdis.node.schema.ColumnMetadata;
import io.charybdis.node.schema.TableMetadata;
import io.charybdis.node.schema.TypeKind;
import io.charybdis.node.schema.Types;
import io.charybdis.protocol.types.DataType;
import io.charybdis.storage.read.ReadCommand;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The WHERE clause of a SELECT, UPDATE or DELETE, analyzed against a table: which partitions (by key values or a
 * token range), which clustering slices, and which leftover conditions must be checked row by row (filtering).
 *
 * <p>Partition key columns restricted by = or IN select partitions directly; {@code token(...)} relations select a
 * token range. Clustering columns restricted by =/IN on a prefix, optionally followed by one slice, become storage
 * slices. Everything else is a {@link Filter}.
 */
public final class Restrictions {
    /** A per-row condition on a column value. */
    public record Filter(ColumnMetadata column, Operator op, BoundValue value, List<BoundValue> inValues,
                         BoundValue mapKey) {
    }

    private final TableMetadata table;
    /** Per partition key column: the bound values it may take (one for =, several for IN); null = unrestricted. */
    private final List<List<BoundValue>> pkValues;
    private final BoundValue[] pkInMarkers;
    private boolean partitionKeyIn;
    /** Per clustering column in a prefix restricted by = or IN. */
    private final List<List<BoundValue>> ckEqValues = new ArrayList<>();
    private final BoundValue[] ckInMarkers;
    /** The slice after the = prefix: bounds as tuples of values over columns [prefix, prefix+n). */
    private List<BoundValue> sliceStart;
    private boolean sliceStartInclusive;
    private List<BoundValue> sliceEnd;
    private boolean sliceEndInclusive;
    private BoundValue tokenStart;
    private boolean tokenStartInclusive;
    private BoundValue tokenEnd;
    private boolean tokenEndInclusive;
    private final List<Filter> filters = new ArrayList<>();
    private boolean hasTokenRestriction;
    private boolean hasMultiColumnIn;
    /** Whether a clustering column is restricted by IN (alone or in a tuple), whatever the number of values. */
    private boolean clusteringIn;
    private List<List<BoundValue>> multiColumnIn;
    /** {@code (a, b) IN ?}: the marker for the list of tuples (then {@link #multiColumnIn} is empty). */
    private BoundValue multiColumnInMarker;
    private List<ColumnMetadata> multiColumnInColumns;
    /** With a multi-column IN: the clustering prefix it is part of, and the = / IN values of its other columns. */
    private int multiInPrefixLength;
    private List<BoundValue>[] multiInOthers;
    /** The columns of a multi-column slice ({@code (c1, c2) > (...)}), null without one. */
    private List<ColumnMetadata> multiSliceColumns;
    /** Whether a multi-column slice spans clustering columns of mixed ASC/DESC order. */
    private boolean mixedOrder;
    /** Whether two multi-column slices start on different columns ({@code (b, c) > (1, 0) AND (d, e) < (2, 2)}). */
    private boolean secondMultiSlice;

    public Restrictions(TableMetadata table, List<Relation> where, TermBinder binder, boolean forSelect,
                        boolean allowFiltering) {
        this(table, where, binder, forSelect, allowFiltering, null);
    }

    /** @param modification the statement kind (UPDATE, DELETE) of a modification's WHERE clause, else null */
    public Restrictions(TableMetadata table, List<Relation> where, TermBinder binder, boolean forSelect,
                        boolean allowFiltering, String modification) {
        this.table = table;
        int pkCount = table.partitionKey().size();
        int ckCount = table.clustering().size();
        this.pkValues = new ArrayList<>(java.util.Collections.nCopies(pkCount, (List<BoundValue>) null));
        this.pkInMarkers = new BoundValue[pkCount];
        this.ckInMarkers = new BoundValue[ckCount];
        List<List<BoundValue>> ckValues = new ArrayList<>(java.util.Collections.nCopies(ckCount, (List<BoundValue>) null));
        BoundValue[] ckInMarkersTmp = new BoundValue[ckCount];
        Object[][] ckSlices = new Object[ckCount][];
        // whether a key column's restriction so far is an IN (Cassandra names the first restriction when merging)
        boolean[] pkIn = new boolean[pkCount];
        boolean[] ckIn = new boolean[ckCount];
        @SuppressWarnings("unchecked")
        List<BoundValue>[] others = new List[ckCount];
        this.multiInOthers = others;
        List<Relation> leftover = new ArrayList<>();
        where = singleColumnTupleIns(where);
        this.clusteringMerge = forSelect ? new ClusteringMerge(table, allowFiltering) : null;
        if (modification != null) {
            // as Cassandra: refused before any column is looked up
            for (Relation r : where) {
                if (r instanceof Relation.SingleColumn sc
                        && (sc.op() == Operator.CONTAINS || sc.op() == Operator.CONTAINS_KEY)) {
                    throw new InvalidRequestException("Cannot use " + modification + " with " + sc.op().cql());
                }
            }
        }
        for (Relation r : where) {
            switch (r) {
                case Relation.SingleColumn sc -> {
                    ColumnMetadata c = column(sc.column());
                    if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY && sc.op() == Operator.EQ) {
                        if (pkValues.get(c.position()) != null) {
                            throw alreadyRestricted(c, pkIn[c.position()]);
                        }
                        pkValues.set(c.position(), List.of(binder.bind(sc.value(), c.name(), c.type())));
                    } else if (c.kind() == ColumnMetadata.Kind.CLUSTERING && isSliceOrEq(sc.op())) {
                        if (clusteringMerge != null) {
                            clusteringMerge.single(c, sc.op(), true);
                        }
                        if (sc.op() == Operator.EQ) {
                            if (multiSliceColumns != null && multiSliceColumns.contains(c)) {
                                throw new InvalidRequestException("Column \"" + c.name() + "\" cannot be restricted "
                                        + "by both an equality and an inequality relation");
                            }
                            if (ckSlices[c.position()] != null) {
                                throw new InvalidRequestException("Column \"" + c.name() + "\" cannot be restricted "
                                        + "by both an equality and an inequality relation");
                            }
                            if (ckValues.get(c.position()) != null) {
                                throw alreadyRestricted(c, ckIn[c.position()]);
                            }
                            ckValues.set(c.position(), List.of(binder.bind(sc.value(), c.name(), c.type())));
                        } else {
                            if (ckValues.get(c.position()) != null) {
                                throw alreadyRestricted(c, ckIn[c.position()]);
                            }
                            Object[] s = ckSlices[c.position()] == null ? new Object[4] : ckSlices[c.position()];
                            BoundValue v = binder.bind(sc.value(), c.name(), c.type());
                            boolean start = (sc.op() == Operator.GT || sc.op() == Operator.GTE) != c.reversed();
                            boolean incl = sc.op() == Operator.GTE || sc.op() == Operator.LTE;
                            int idx = start ? 0 : 2;
                            if (s[idx] != null) {
                                throw new InvalidRequestException("More than one restriction was found for the "
                                        + (start != c.reversed() ? "start" : "end") + " bound on " + c.name());
                            }
                            s[idx] = v;
                            s[idx + 1] = incl;
                            ckSlices[c.position()] = s;
                        }
                    } else {
                        if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY && isSliceOp(sc.op()) && modification != null) {
                            throw new InvalidRequestException("Only EQ and IN relation are supported on the partition "
                                    + "key (unless you use the token() function) for " + modification + " statements");
                        }
                        if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY && isSliceOp(sc.op()) && !allowFiltering) {
                            throw new InvalidRequestException("Cannot execute this query as it might involve data "
                                    + "filtering and thus may have unpredictable performance. If you want to execute "
                                    + "this query despite the performance unpredictability, use ALLOW FILTERING");
                        }
                        if (c.kind() == ColumnMetadata.Kind.CLUSTERING && clusteringMerge != null) {
                            clusteringMerge.single(c, sc.op(), true);
                        }
                        leftover.add(r);
                    }
                }
                case Relation.In in -> {
                    if (in.op() != Operator.IN) {
                        leftover.add(r);
                        break;
                    }
                    ColumnMetadata c = column(in.column());
                    if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY || c.kind() == ColumnMetadata.Kind.CLUSTERING) {
                        List<BoundValue> values = new ArrayList<>();
                        BoundValue marker = null;
                        if (in.values() instanceof InValues.Terms t) {
                            for (Term term : t.terms()) {
                                values.add(binder.bind(term, c.name(), c.type()));
                            }
                        } else {
                            marker = binder.marker(((InValues.Marker) in.values()).marker(), "in(" + c.name() + ")",
                                    Types.listOf(c.type(), false));
                        }
                        if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY) {
                            if (pkValues.get(c.position()) != null) {
                                throw alreadyRestricted(c, pkIn[c.position()]);
                            }
                            pkIn[c.position()] = marker != null || values.size() != 1; // IN (x) is an = in Cassandra
                            pkValues.set(c.position(), values);
                            pkInMarkers[c.position()] = marker;
                            partitionKeyIn = true;
                        } else {
                            if (clusteringMerge != null) {
                                clusteringMerge.single(c, Operator.IN, marker == null && values.size() == 1);
                            }
                            if (ckSlices[c.position()] != null) {
                                throw new InvalidRequestException("Column \"" + c.name() + "\" cannot be restricted "
                                        + "by both an equality and an inequality relation");
                            }
                            if (ckValues.get(c.position()) != null) {
                                throw alreadyRestricted(c, ckIn[c.position()]);
                            }
                            ckIn[c.position()] = marker != null || values.size() != 1;
                            ckValues.set(c.position(), values);
                            ckInMarkersTmp[c.position()] = marker;
                            clusteringIn = true;
                        }
                    } else {
                        leftover.add(r);
                    }
                }
                case Relation.Token t -> {
                    if (modification != null) {
                        throw new InvalidRequestException("The token function cannot be used in WHERE clauses for "
                                + modification + " statements");
                    }
                    for (String n : t.columns()) {
                        column(n); // an unknown name first, as Cassandra resolves the relation's columns
                    }
                    List<String> names = new ArrayList<>();
                    for (ColumnMetadata c : table.partitionKey()) {
                        names.add(c.name());
                    }
                    // Cassandra's checks, in its order: all of the key, only the key, in key order
                    if (!t.columns().equals(names)) {
                        if (!t.columns().containsAll(names)) {
                            throw new InvalidRequestException("The token() function must be applied to all partition "
                                    + "key components or none of them");
                        }
                        if (new java.util.HashSet<>(t.columns()).size() != t.columns().size()) {
                            throw new InvalidRequestException("The token() function contains duplicate partition key "
                                    + "components");
                        }
                        if (!names.containsAll(t.columns())) {
                            throw new InvalidRequestException("The token() function must contains only partition key "
                                    + "components");
                        }
                        throw new InvalidRequestException("The token function arguments must be in the partition key "
                                + "order: " + String.join(", ", names));
                    }
                    hasTokenRestriction = true;
                    BoundValue v = t.value() instanceof Term.FunctionCall fc && isTokenFunction(fc)
                            ? tokenOf(fc, binder)
                            : binder.bind(t.value(), "partition key token", io.charybdis.protocol.types.NativeType.BIGINT);
                    boolean sets = t.op() == Operator.EQ || t.op() == Operator.GT || t.op() == Operator.GTE
                            || t.op() == Operator.LT || t.op() == Operator.LTE;
                    if (sets && (t.op() == Operator.EQ || t.op() == Operator.GT || t.op() == Operator.GTE
                            ? tokenStart != null : tokenEnd != null)) {
                        throw new InvalidRequestException("More than one restriction was found for the "
                                + (t.op() == Operator.LT || t.op() == Operator.LTE ? "end" : "start") + " bound on "
                                + String.join(", ", names));
                    }
                    switch (t.op()) {
                        case GT, GTE -> {
                            tokenStart = v;
                            tokenStartInclusive = t.op() == Operator.GTE;
                        }
                        case LT, LTE -> {
                            tokenEnd = v;
                            tokenEndInclusive = t.op() == Operator.LTE;
                        }
                        case EQ -> {
                            tokenStart = v;
                            tokenEnd = v;
                            tokenStartInclusive = true;
                            tokenEndInclusive = true;
                        }
                        default -> throw new InvalidRequestException("Unsupported operator " + t.op().cql()
                                + " on token()");
                    }
                }
                case Relation.MultiColumn mc -> analyzeMultiColumn(mc, binder, ckValues, ckSlices);
                case Relation.MultiColumnIn mci -> {
                    String inText = mci.values() instanceof InValues.Terms ts
                            ? "(" + String.join(", ", ts.terms().stream().map(Term::toCql).toList()) + ")" : "?";
                    List<ColumnMetadata> cols = clusteringPrefixColumns(mci.columns(),
                            "(" + String.join(", ", mci.columns()) + ") IN " + inText);
                    List<List<BoundValue>> inTuples = new ArrayList<>();
                    if (mci.values() instanceof InValues.Marker m) {
                        // (a, b) IN ?: one list of tuples
                        List<DataType> types = new ArrayList<>();
                        StringBuilder name = new StringBuilder("in(");
                        for (int i = 0; i < cols.size(); i++) {
                            types.add(cols.get(i).type());
                            name.append(i > 0 ? "," : "").append(cols.get(i).name());
                        }
                        multiColumnInMarker = binder.marker(m.marker(), name.append(')').toString(),
                                new io.charybdis.protocol.types.ListType(
                                        new io.charybdis.protocol.types.TupleType(types), false));
                    } else {
                        List<Term> terms = ((InValues.Terms) mci.values()).terms();
                        for (Term t : terms) {
                            inTuples.add(tupleValues(t, cols, binder, false,
                                    terms.size() > 1 ? inNullMessage(cols) : null));
                        }
                    }
                    // as Cassandra: the relation is checked on its own (its tuples) before it meets the others
                    if (clusteringMerge != null) {
                        clusteringMerge.multi(cols, Operator.IN, multiColumnInMarker == null && inTuples.size() == 1);
                    }
                    for (ColumnMetadata c : cols) {
                        if (ckValues.get(c.position()) != null) {
                            throw new InvalidRequestException(c.name() + " cannot be restricted by more than one "
                                    + "relation if it includes an Equal");
                        }
                        if (ckSlices[c.position()] != null
                                || (multiSliceColumns != null && multiSliceColumns.contains(c))) {
                            throw new InvalidRequestException(c.name() + " cannot be restricted by more than one "
                                    + "relation if it includes a IN");
                        }
                    }
                    multiColumnIn = inTuples;
                    multiColumnInColumns = cols;
                    hasMultiColumnIn = true;
                    clusteringIn = true;
                    multiRestricted.addAll(cols);
                    for (ColumnMetadata c : cols) {
                        ckValues.set(c.position(), List.of());
                    }
                }
                default -> leftover.add(r);
            }
        }
        if (clusteringMerge != null) {
            clusteringMerge.checkPrefix(anyIndexed(where));
        }
        // a single-column slice inside a multi-column slice that starts on an earlier column
        if (multiSliceColumns != null) {
            for (int i = 1; i < multiSliceColumns.size(); i++) {
                ColumnMetadata c = multiSliceColumns.get(i);
                if (ckSlices[c.position()] != null) {
                    throw new InvalidRequestException("Column \"" + c.name() + "\" cannot be restricted by two "
                            + "inequalities not starting with the same column");
                }
            }
        }
        // clustering: an = / IN prefix, then at most one slice
        int prefix = 0;
        while (prefix < ckCount && ckValues.get(prefix) != null) {
            prefix++;
        }
        boolean sliceBeforeMulti = false;
        for (int i = 0; multiSliceColumns != null && i < multiSliceColumns.get(0).position(); i++) {
            sliceBeforeMulti |= ckSlices[i] != null;
        }
        if (forSelect && allowFiltering && multiSliceColumns != null
                && (multiSliceColumns.get(0).position() > prefix || sliceBeforeMulti || secondMultiSlice)) {
            // as Cassandra: a multi-column slice bounds a storage range, it is never checked row by row
            throw new InvalidRequestException("Multi-column slice restrictions cannot be used for filtering.");
        }
        boolean slicePlaced = false;
        for (int i = 0; i < ckCount; i++) {
            boolean restricted = ckValues.get(i) != null || ckSlices[i] != null;
            if (!restricted) {
                continue;
            }
            ColumnMetadata c = table.clustering().get(i);
            if (i < prefix) {
                if (!hasMultiColumnIn) {
                    ckEqValues.add(ckValues.get(i));
                    ckInMarkers[i] = ckInMarkersTmp[i];
                } else {
                    // = / IN on the other columns of the prefix, around the multi-column IN
                    multiInPrefixLength = prefix;
                    multiInOthers[i] = multiColumnInColumns.contains(c) ? null : ckValues.get(i);
                    ckInMarkers[i] = ckInMarkersTmp[i];
                }
                continue;
            }
            if (i == prefix && ckSlices[i] != null && !slicePlaced) {
                // a slice on the first column after the prefix; a multi-column slice from the same column may
                // already bound the other side ((c1, c2) > (1, 'a') AND c1 < 3)
                Object[] s = ckSlices[i];
                if (s[0] != null) {
                    if (sliceStart != null) {
                        throw new InvalidRequestException("More than one restriction was found for the "
                                + (c.reversed() ? "end" : "start") + " bound on " + c.name());
                    }
                    sliceStart = List.of((BoundValue) s[0]);
                    sliceStartInclusive = (Boolean) s[1];
                }
                if (s[2] != null) {
                    if (sliceEnd != null) {
                        throw new InvalidRequestException("More than one restriction was found for the "
                                + (c.reversed() ? "start" : "end") + " bound on " + c.name());
                    }
                    sliceEnd = List.of((BoundValue) s[2]);
                    sliceEndInclusive = (Boolean) s[3];
                }
                slicePlaced = true;
                continue;
            }
            boolean indexedEq = forSelect && ckSlices[i] == null && ckValues.get(i) != null
                    && ckValues.get(i).size() == 1 && ckInMarkersTmp[i] == null
                    && indexFor(table, new Filter(c, Operator.EQ, null, null, null)) != null;
            // as Cassandra: an UPDATE refuses a slice first, and with no COMPACT STORAGE names the clustering
            // columns missing rather than the gap
            boolean updateChecksLater = "UPDATE".equals(modification) && !slicePlaced && multiSliceColumns == null
                    && (ckSlices[i] != null || table.compactStorage() == io.charybdis.node.schema.CompactStorage.NONE);
            if ((!allowFiltering || !forSelect) && !indexedEq && !updateChecksLater) {
                String preceding = table.clustering().get(prefix).name();
                if (slicePlaced || multiSliceColumns != null) {
                    throw new InvalidRequestException("Clustering column \"" + c.name() + "\" cannot be restricted "
                            + "(preceding column \"" + preceding + "\" is restricted by a non-EQ relation)");
                }
                throw new InvalidRequestException("PRIMARY KEY column \"" + c.name() + "\" cannot be restricted as "
                        + "preceding column \"" + table.clustering().get(prefix).name() + "\" is not restricted");
            }
            addClusteringFilter(c, ckValues.get(i), ckSlices[i]);
        }
        if (sliceStart != null && ckSlices.length > 0 && sliceStart.size() == 1 && prefix < ckCount) {
            // already placed
        }
        // as Cassandra: with an index for any restriction of the query, a CONTAINS on a clustering column is left to
        // the filtering checks below (an index answers one restriction; the others need ALLOW FILTERING)
        boolean queriableIndex = forSelect && anyIndexed(where);
        if (forSelect && !allowFiltering && !queriableIndex) {
            // as Cassandra: CONTAINS on a clustering column needs an index or filtering, and like any restriction on a
            // clustering column it cannot follow a slice on an earlier one
            ColumnMetadata sliced = multiSliceColumns != null ? multiSliceColumns.get(0) : null;
            for (int i = 0; i < ckCount && sliced == null; i++) {
                if (ckSlices[i] != null) {
                    sliced = table.clustering().get(i);
                }
            }
            for (Relation r : leftover) {
                if (r instanceof Relation.SingleColumn sc
                        && (sc.op() == Operator.CONTAINS || sc.op() == Operator.CONTAINS_KEY)) {
                    ColumnMetadata c = column(sc.column());
                    TypeKind k = Types.kind(c.type());
                    boolean typeFits = sc.op() == Operator.CONTAINS ? k.isCollection() : k == TypeKind.MAP;
                    if (c.kind() != ColumnMetadata.Kind.CLUSTERING || !typeFits
                            || indexFor(table, new Filter(c, sc.op(), null, null, null)) != null) {
                        continue;
                    }
                    if (sliced != null && sliced.position() < c.position()) {
                        throw new InvalidRequestException("Clustering column \"" + c.name() + "\" cannot be "
                                + "restricted (preceding column \"" + sliced.name() + "\" is restricted by a non-EQ "
                                + "relation)");
                    }
                    throw new InvalidRequestException("Clustering columns can only be restricted with CONTAINS with a "
                            + "secondary index or filtering");
                }
            }
        }
        for (Relation r : leftover) {
            addFilter(r, binder);
        }
        if (forSelect && !allowFiltering && !queriableIndex) {
            // as Cassandra: no index answers CONTAINS / CONTAINS KEY on a (frozen) clustering column
            for (Filter f : filters) {
                if (f.column().kind() == ColumnMetadata.Kind.CLUSTERING && (f.op() == Operator.CONTAINS
                        || f.op() == Operator.CONTAINS_KEY) && indexFor(table, f) == null) {
                    throw new InvalidRequestException("Clustering columns can only be restricted with CONTAINS with a "
                            + "secondary index or filtering");
                }
            }
        }
        boolean partialPk = false;
        boolean anyPk = false;
        for (List<BoundValue> v : pkValues) {
            partialPk |= v == null;
            anyPk |= v != null;
        }
        if (anyPk && partialPk && modification != null) {
            List<String> missing = new ArrayList<>();
            for (ColumnMetadata c : table.partitionKey()) {
                if (pkValues.get(c.position()) == null) {
                    missing.add(c.name());
                }
            }
            throw new InvalidRequestException("Some partition key parts are missing: " + String.join(", ", missing));
        }
        if (anyPk && partialPk) {
            if (!forSelect || (!allowFiltering && !partialKeyIndexed(pkValues))) {
                for (ColumnMetadata c : table.partitionKey()) {
                    if (pkValues.get(c.position()) == null) {
                        throw new InvalidRequestException("Cannot execute this query as it might involve data "
                                + "filtering and thus may have unpredictable performance. If you want to execute this "
                                + "query despite the performance unpredictability, use ALLOW FILTERING");
                    }
                }
            }
            for (ColumnMetadata c : table.partitionKey()) {
                List<BoundValue> v = pkValues.get(c.position());
                if (v != null) {
                    filters.add(v.size() == 1 && pkInMarkers[c.position()] == null
                            ? new Filter(c, Operator.EQ, v.get(0), null, null)
                            : new Filter(c, Operator.IN, pkInMarkers[c.position()], v, null));
                    pkValues.set(c.position(), null);
                }
            }
        }
        if (forSelect && partitionKeyIn && filters.stream().anyMatch(f -> indexFor(table, f) != null)) {
            throw new InvalidRequestException("Select on indexed columns and with IN clause for the PRIMARY KEY are "
                    + "not supported");
        }
        if (forSelect && !hasPartitionKeys() && filters.isEmpty() && ckEqValues.size() == 1
                && ckEqValues.get(0).size() == 1 && ckInMarkers[0] == null && sliceStart == null && sliceEnd == null
                && !hasMultiColumnIn) {
            // = on the first clustering column alone, which has an index: the index answers it
            ColumnMetadata first = table.clustering().get(0);
            Filter f = new Filter(first, Operator.EQ, ckEqValues.get(0).get(0), null, null);
            if (indexFor(table, f) != null) {
                filters.add(f);
                ckEqValues.clear();
            }
        }
        boolean clusteringRestricted = !ckEqValues.isEmpty() || sliceStart != null || sliceEnd != null
                || hasMultiColumnIn;
        // as Cassandra: an index answers one restriction; anything else left to check row by row is filtering
        // as Cassandra: when the clustering restrictions cannot all bound the read (one is left to an index), they
        // are all index expressions, the = prefix and the slice before it too
        boolean clusteringFiltered = false;
        for (Filter f : filters) {
            clusteringFiltered |= f.column().kind() == ColumnMetadata.Kind.CLUSTERING;
        }
        int boundingClustering = clusteringFiltered
                ? ckEqValues.size() + (sliceStart != null || sliceEnd != null ? 1 : 0) : 0;
        boolean needsFiltering = !filters.isEmpty()
                ? filters.size() + boundingClustering > 1 || indexFor(table, filters.get(0)) == null
                        || (!hasPartitionKeys() && clusteringRestricted)
                : !hasPartitionKeys() && clusteringRestricted;
        if (forSelect && !allowFiltering && needsFiltering) {
            throw new InvalidRequestException("Cannot execute this query as it might involve data filtering and thus "
                    + "may have unpredictable performance. If you want to execute this query despite the performance "
                    + "unpredictability, use ALLOW FILTERING");
        }
    }

    /**
     * Whether an index of the table could answer one of the relations of a WHERE clause (a multi-column one when it
     * could answer it on one of its columns).
     */
    private boolean anyIndexed(List<Relation> where) {
        for (Relation r : where) {
            List<String> columns = switch (r) {
                case Relation.SingleColumn sc -> List.of(sc.column());
                case Relation.MultiColumn mc -> mc.columns();
                default -> List.of();
            };
            Operator op = r instanceof Relation.SingleColumn sc ? sc.op()
                    : r instanceof Relation.MultiColumn mc ? mc.op() : null;
            for (String name : columns) {
                ColumnMetadata c = table.column(name);
                if (c != null && indexFor(table, new Filter(c, op, null, null, null)) != null) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * With several multi-column INs ({@code (b) IN ((0), (1)) AND (c) IN ((0))}), those over one column become the
     * single-column INs they mean, so that each restricts its own column.
     */
    private static List<Relation> singleColumnTupleIns(List<Relation> where) {
        int multiIns = 0;
        for (Relation r : where) {
            multiIns += r instanceof Relation.MultiColumnIn ? 1 : 0;
        }
        if (multiIns < 2) {
            return where;
        }
        List<Relation> out = new ArrayList<>(where.size());
        for (Relation r : where) {
            if (r instanceof Relation.MultiColumnIn mci && mci.op() == Operator.IN && mci.columns().size() == 1
                    && mci.values() instanceof InValues.Terms ts && ts.terms().stream()
                            .allMatch(t -> t instanceof Term.TupleLiteral tl && tl.elements().size() == 1)) {
                List<Term> values = new ArrayList<>();
                for (Term t : ts.terms()) {
                    values.add(((Term.TupleLiteral) t).elements().get(0));
                }
                out.add(new Relation.In(mci.columns().get(0), Operator.IN, new InValues.Terms(values)));
            } else {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * Whether clustering column {@code position} is restricted to one value by =, an IN of one value or a
     * multi-column IN of one tuple (what ORDER BY may skip, as Cassandra).
     */
    public boolean isClusteringRestrictedByEq(int position) {
        if (hasMultiColumnIn && multiColumnInColumns != null) {
            for (ColumnMetadata c : multiColumnInColumns) {
                if (c.position() == position) {
                    return multiColumnInMarker == null && multiColumnIn.size() == 1;
                }
            }
            return position < multiInOthers.length && multiInOthers[position] != null
                    && multiInOthers[position].size() == 1 && ckInMarkers[position] == null;
        }
        return position < ckEqValues.size() && ckEqValues.get(position).size() == 1 && ckInMarkers[position] == null;
    }

    /** A key column restricted twice: Cassandra names the kind of the first restriction. */
    private static InvalidRequestException alreadyRestricted(ColumnMetadata c, boolean firstIsIn) {
        return new InvalidRequestException(c.name() + " cannot be restricted by more than one relation if it includes "
                + (firstIsIn ? "a IN" : "an Equal"));
    }

    /** Equality on every primary key column with the given values (INSERT JSON). */
    public Restrictions(TableMetadata table, java.util.function.Function<ColumnMetadata, BoundValue> keyValues) {
        this.table = table;
        this.pkValues = new ArrayList<>();
        this.pkInMarkers = new BoundValue[table.partitionKey().size()];
        this.ckInMarkers = new BoundValue[table.clustering().size()];
        for (ColumnMetadata c : table.partitionKey()) {
            pkValues.add(List.of(keyValues.apply(c)));
        }
        for (ColumnMetadata c : table.clustering()) {
            ckEqValues.add(List.of(keyValues.apply(c)));
        }
    }

    /** Whether the only restricted column of a partly restricted partition key has an index for its =. */
    private boolean partialKeyIndexed(List<List<BoundValue>> pkValues) {
        ColumnMetadata only = null;
        for (ColumnMetadata c : table.partitionKey()) {
            List<BoundValue> v = pkValues.get(c.position());
            if (v != null) {
                if (only != null || v.size() != 1 || pkInMarkers[c.position()] != null) {
                    return false;
                }
                only = c;
            }
        }
        return only != null && indexFor(table, new Filter(only, Operator.EQ, null, null, null)) != null;
    }

    /**
     * The native index that answers {@code f}, or null: = on a column's value ({@code values} of a non-collection,
     * {@code full} of a frozen collection), CONTAINS on a collection's values, CONTAINS KEY on a map's keys,
     * {@code m[key] = value} on a map's entries.
     */
    public static io.charybdis.node.schema.IndexMetadata indexFor(TableMetadata table, Filter f) {
        for (io.charybdis.node.schema.IndexMetadata idx : table.indexes().values()) {
            if (!idx.targetColumn().equals(f.column().name())) {
                continue;
            }
            String kind = idx.targetKind();
            boolean multiCell = f.column().isMultiCell();
            boolean ok = switch (f.op()) {
                case EQ -> f.mapKey() != null ? kind.equals("entries")
                        : kind.equals("full") || (kind.equals("values") && !multiCell);
                case CONTAINS -> kind.equals("values") && multiCell;
                case CONTAINS_KEY -> kind.equals("keys");
                default -> false;
            };
            if (ok) {
                return idx;
            }
        }
        return null;
    }

    /** A SELECT's clustering relations as Cassandra merges them, for its errors; null for other statements. */
    private ClusteringMerge clusteringMerge;

    /** The clustering columns restricted by multi-column relations so far. */
    private final java.util.Set<ColumnMetadata> multiRestricted = new java.util.HashSet<>();

    /**
     * The columns two multi-column restrictions share, as Cassandra names them in its errors (last first, joined by
     * " ,"); {@code single} when the earlier restriction was on that one column.
     */
    private String commonNames(List<ColumnMetadata> cols, ColumnMetadata single) {
        List<String> common = new ArrayList<>();
        for (ColumnMetadata c : cols) {
            if (multiRestricted.contains(c)) {
                common.add(0, c.name());
            } else if (single != null && c == single) {
                return single.name();
            }
        }
        return common.isEmpty() && single != null ? single.name() : String.join(" ,", common);
    }

    private void analyzeMultiColumn(Relation.MultiColumn mc, TermBinder binder, List<List<BoundValue>> ckValues,
                                    Object[][] ckSlices) {
        String text = "(" + String.join(", ", mc.columns()) + ") " + mc.op().cql() + " " + mc.value().toCql();
        if (mc.op() == Operator.NEQ) {
            throw new InvalidRequestException("Unsupported \"!=\" relation: " + text);
        }
        List<ColumnMetadata> cols = clusteringPrefixColumns(mc.columns(), text);
        // as Cassandra: the relation is checked on its own (its tuple) before it meets the others
        List<BoundValue> values = tupleValues(mc.value(), cols, binder, mc.op() != Operator.EQ);
        if (clusteringMerge != null) {
            clusteringMerge.multi(cols, mc.op(), true);
        }
        // the columns already restricted, as Cassandra merges restrictions: the last one with an equality names the
        // error; an equality over a column with an inequality is refused
        ColumnMetadata lastEq = null;
        for (ColumnMetadata c : cols) {
            if (ckValues.get(c.position()) != null) {
                lastEq = c;
            }
        }
        if (lastEq != null) {
            throw new InvalidRequestException(commonNames(cols, lastEq) + " cannot be restricted by more than one "
                    + "relation if it includes an Equal");
        }
        if (mc.op() == Operator.EQ) {
            for (ColumnMetadata c : cols) {
                if (ckSlices[c.position()] != null || (multiSliceColumns != null && multiSliceColumns.contains(c))) {
                    throw new InvalidRequestException("Column \"" + c.name() + "\" cannot be restricted by both an "
                            + "equality and an inequality relation");
                }
            }
        }
        if (mc.op() == Operator.EQ) {
            multiRestricted.addAll(cols);
            for (int i = 0; i < cols.size(); i++) {
                ckValues.set(cols.get(i).position(), List.of(values.get(i)));
            }
            return;
        }
        boolean mixed = false;
        for (ColumnMetadata c : cols) {
            mixed |= c.reversed() != cols.get(0).reversed();
        }
        // mixed ASC/DESC: the slice is not one storage range; slices() splits it, as Cassandra does
        mixedOrder |= mixed;
        if (multiSliceColumns != null && !multiSliceColumns.get(0).equals(cols.get(0))) {
            secondMultiSlice = true;
        }
        boolean start = (mc.op() == Operator.GT || mc.op() == Operator.GTE) != cols.get(0).reversed();
        boolean incl = mc.op() == Operator.GTE || mc.op() == Operator.LTE;
        if (start ? sliceStart != null : sliceEnd != null) {
            throw new InvalidRequestException("More than one restriction was found for the "
                    + (start != cols.get(0).reversed() ? "start" : "end") + " bound on "
                    + (multiSliceColumns != null ? commonNames(cols, null) : cols.get(0).name()));
        }
        multiSliceColumns = cols;
        multiRestricted.addAll(cols);
        if (start) {
            sliceStart = values;
            sliceStartInclusive = incl;
        } else {
            sliceEnd = values;
            sliceEndInclusive = incl;
        }
    }

    /** @param slice whether the tuple bounds a slice (Cassandra's null message then speaks of a condition) */
    private List<BoundValue> tupleValues(Term t, List<ColumnMetadata> cols, TermBinder binder, boolean slice) {
        return tupleValues(t, cols, binder, slice, null);
    }

    /** @param inNullMessage for a tuple of an IN of several: Cassandra's message for a null in any of them */
    private List<BoundValue> tupleValues(Term t, List<ColumnMetadata> cols, TermBinder binder, boolean slice,
                                         String inNullMessage) {
        List<BoundValue> values = new ArrayList<>();
        String nullMessage = slice ? "Invalid null value in condition for column " : "Invalid null value for column ";
        if (t instanceof Term.TupleLiteral tl) {
            if (tl.elements().size() != cols.size()) {
                throw new InvalidRequestException("Expected " + cols.size() + " elements in value tuple, but got "
                        + tl.elements().size() + ": " + t.toCql());
            }
            for (int i = 0; i < cols.size(); i++) {
                BoundValue b = binder.bind(tl.elements().get(i), cols.get(i).name(), cols.get(i).type());
                String name = cols.get(i).name();
                values.add(ctx -> {
                    ByteBuffer v = b.bind(ctx);
                    if (v == null) {
                        throw new InvalidRequestException(inNullMessage != null ? inNullMessage : nullMessage + name);
                    }
                    return v;
                });
            }
            return values;
        }
        if (t instanceof Term.BindMarker m) {
            List<DataType> types = new ArrayList<>();
            for (ColumnMetadata c : cols) {
                types.add(c.type());
            }
            StringBuilder name = new StringBuilder("(");
            for (int i = 0; i < cols.size(); i++) {
                name.append(i > 0 ? "," : "").append(cols.get(i).name());
            }
            BoundValue tuple = binder.marker(m, name.append(')').toString(),
                    new io.charybdis.protocol.types.TupleType(types));
            for (int i = 0; i < cols.size(); i++) {
                int idx = i;
                int n = cols.size();
                values.add(ctx -> {
                    ByteBuffer v = tuple.bind(ctx);
                    if (v == null || v == Values.UNSET) {
                        return v;
                    }
                    ByteBuffer field = Values.fields(v, n).get(idx);
                    if (field == null) {
                        throw new InvalidRequestException(inNullMessage != null ? inNullMessage
                                : nullMessage + cols.get(idx).name());
                    }
                    return field;
                });
            }
            return values;
        }
        throw new InvalidRequestException("Invalid multi-column relation value " + t.toCql());
    }

    /** @param text the relation as Cassandra writes it in its errors: {@code (b, c) = (0, 1)} */
    private List<ColumnMetadata> clusteringPrefixColumns(List<String> names, String text) {
        List<ColumnMetadata> cols = new ArrayList<>();
        for (String n : names) {
            ColumnMetadata c = column(n);
            if (c.kind() != ColumnMetadata.Kind.CLUSTERING) {
                throw new InvalidRequestException("Multi-column relations can only be applied to clustering columns "
                        + "but was applied to: " + n);
            }
            if (cols.contains(c)) {
                throw new InvalidRequestException("Column \"" + n + "\" appeared twice in a relation: " + text);
            }
            cols.add(c);
        }
        for (int i = 0; i < cols.size(); i++) {
            if (cols.get(i).position() != cols.get(0).position() + i) {
                throw new InvalidRequestException("Clustering columns must appear in the PRIMARY KEY order in "
                        + "multi-column relations: " + text);
            }
        }
        return cols;
    }

    private void addClusteringFilter(ColumnMetadata c, List<BoundValue> eq, Object[] slice) {
        if (eq != null) {
            filters.add(eq.size() == 1 ? new Filter(c, Operator.EQ, eq.get(0), null, null)
                    : new Filter(c, Operator.IN, ckInMarkers[c.position()], eq, null));
        }
        if (slice != null) {
            // slice arrays are in storage order; convert back to operators on the value
            if (slice[0] != null) {
                boolean incl = (Boolean) slice[1];
                filters.add(new Filter(c, c.reversed() ? (incl ? Operator.LTE : Operator.LT)
                        : (incl ? Operator.GTE : Operator.GT), (BoundValue) slice[0], null, null));
            }
            if (slice[2] != null) {
                boolean incl = (Boolean) slice[3];
                filters.add(new Filter(c, c.reversed() ? (incl ? Operator.GTE : Operator.GT)
                        : (incl ? Operator.LTE : Operator.LT), (BoundValue) slice[2], null, null));
            }
        }
    }

    /** Per filtered column: 'E' (=), 'I' (IN), and the slice bounds seen, to merge restrictions as Cassandra does. */
    private final java.util.Map<String, int[]> filterKinds = new java.util.HashMap<>();

    private void mergeFilter(ColumnMetadata c, Operator op) {
        if (op != Operator.EQ && op != Operator.IN && !isSliceOp(op)) {
            return;
        }
        // [0]: 1 = EQ, 2 = IN; [1]: a start bound; [2]: an end bound
        int[] k = filterKinds.computeIfAbsent(c.name(), n -> new int[3]);
        if (k[0] != 0) {
            throw alreadyRestricted(c, k[0] == 2);
        }
        if (op == Operator.EQ || op == Operator.IN) {
            if (k[1] != 0 || k[2] != 0) {
                throw new InvalidRequestException("Column \"" + c.name() + "\" cannot be restricted by both an "
                        + "equality and an inequality relation");
            }
            k[0] = op == Operator.EQ ? 1 : 2;
            return;
        }
        int idx = op == Operator.GT || op == Operator.GTE ? 1 : 2;
        if (k[idx] != 0) {
            throw new InvalidRequestException("More than one restriction was found for the "
                    + (idx == 1 ? "start" : "end") + " bound on " + c.name());
        }
        k[idx] = 1;
    }

    private void addFilter(Relation r, TermBinder binder) {
        switch (r) {
            case Relation.SingleColumn sc -> {
                ColumnMetadata c = column(sc.column());
                DataType valueType = c.type();
                if (isSliceOp(sc.op())) {
                    checkSliceOnDurations(c);
                }
                if (sc.op() == Operator.NEQ) {
                    throw new InvalidRequestException("Unsupported \"!=\" relation: " + c.name() + " != "
                            + sc.value().toCql());
                }
                boolean contains = sc.op() == Operator.CONTAINS || sc.op() == Operator.NOT_CONTAINS
                        || sc.op() == Operator.CONTAINS_KEY || sc.op() == Operator.NOT_CONTAINS_KEY;
                // (CONTAINS [KEY] on one is refused below, as on any column that is no collection)
                if (Types.kind(c.type()) == TypeKind.UDT && c.type().isMultiCell() && !contains) {
                    throw new InvalidRequestException("Non-frozen UDT column '" + c.name() + "' (" + c.type().cqlName()
                            + ") cannot be restricted by any relation");
                }
                if (c.type().isMultiCell() && (sc.op() == Operator.EQ || isSliceOp(sc.op()))) {
                    throw new InvalidRequestException("Collection column '" + c.name() + "' ("
                            + Types.cqlName(c.type()) + ") cannot be restricted by a '" + sc.op().cql()
                            + "' relation");
                }
                mergeFilter(c, sc.op());
                if (sc.op() == Operator.CONTAINS || sc.op() == Operator.NOT_CONTAINS) {
                    TypeKind k = Types.kind(c.type());
                    if (!k.isCollection()) {
                        throw new InvalidRequestException("Cannot use CONTAINS on non-collection column " + c.name());
                    }
                    valueType = k == TypeKind.MAP ? Types.valueType(c.type()) : Types.elementType(c.type());
                } else if (sc.op() == Operator.CONTAINS_KEY || sc.op() == Operator.NOT_CONTAINS_KEY) {
                    if (Types.kind(c.type()) != TypeKind.MAP) {
                        throw new InvalidRequestException("Cannot use CONTAINS KEY on non-map column " + c.name());
                    }
                    valueType = Types.keyType(c.type());
                } else if (sc.op() == Operator.LIKE) {
                    throw new InvalidRequestException("LIKE restriction is only supported on properly indexed columns");
                } else if (c.type().isMultiCell() && sc.op() != Operator.EQ && sc.op() != Operator.NEQ) {
                    throw new InvalidRequestException("Slice restrictions are not supported on collections");
                }
                if (sc.op() == Operator.NEQ) {
                    throw new InvalidRequestException("Unsupported \"!=\" relation: " + c.name() + " != "
                            + sc.value().toCql());
                }
                // markers are named as Cassandra names them: key(c) for CONTAINS KEY, value(c) for CONTAINS
                String receiver = sc.op() == Operator.CONTAINS_KEY || sc.op() == Operator.NOT_CONTAINS_KEY
                        ? "key(" + c.name() + ")"
                        : sc.op() == Operator.CONTAINS || sc.op() == Operator.NOT_CONTAINS
                        ? "value(" + c.name() + ")" : c.name();
                filters.add(new Filter(c, sc.op(), binder.bind(sc.value(), receiver, valueType), null, null));
            }
            case Relation.In in -> {
                ColumnMetadata c = column(in.column());
                if (Types.kind(c.type()) == TypeKind.UDT && c.type().isMultiCell()) {
                    throw new InvalidRequestException("Non-frozen UDT column '" + c.name() + "' (" + c.type().cqlName()
                            + ") cannot be restricted by any relation");
                }
                if (c.type().isMultiCell() && in.op() == Operator.IN) {
                    throw new InvalidRequestException("Collection column '" + c.name() + "' ("
                            + Types.cqlName(c.type()) + ") cannot be restricted by a 'IN' relation");
                }
                mergeFilter(c, in.op());
                List<BoundValue> values = new ArrayList<>();
                BoundValue marker = null;
                if (in.values() instanceof InValues.Terms t) {
                    for (Term term : t.terms()) {
                        values.add(binder.bind(term, c.name(), c.type()));
                    }
                } else {
                    marker = binder.marker(((InValues.Marker) in.values()).marker(), "in(" + c.name() + ")",
                            Types.listOf(c.type(), false));
                }
                filters.add(new Filter(c, in.op(), marker, values, null));
            }
            case Relation.MapElement me -> {
                ColumnMetadata c = column(me.column());
                if (Types.kind(c.type()) == TypeKind.LIST) {
                    throw new InvalidRequestException("Indexes on list entries (" + c.name() + "[index] = value) are "
                            + "not currently supported.");
                }
                if (Types.kind(c.type()) == TypeKind.MAP && !c.type().isMultiCell()) {
                    throw new InvalidRequestException("Map-entry equality predicates on frozen map column " + c.name()
                            + " are not supported");
                }
                if (Types.kind(c.type()) != TypeKind.MAP) {
                    throw new InvalidRequestException("Column " + c.name() + " is not a map");
                }
                if (isSliceOp(me.op())) {
                    checkSliceOnDurations(c);
                }
                if (!c.type().isMultiCell()) {
                    throw new InvalidRequestException("Map-entry equality predicates on frozen map column " + c.name()
                            + " are not supported");
                }
                if (me.op() != Operator.EQ) {
                    throw new InvalidRequestException("Only EQ relations are supported on map entries");
                }
                BoundValue key = binder.bind(me.key(), "key(" + c.name() + ")", Types.keyType(c.type()));
                filters.add(new Filter(c, me.op(), binder.bind(me.value(), "value(" + c.name() + ")",
                        Types.valueType(c.type())), null, key));
            }
            case Relation.IsNotNull nn -> throw new InvalidRequestException("Unsupported restriction: " + nn.column()
                    + " IS NOT NULL");
            default -> throw new InvalidRequestException("Unsupported restriction " + r);
        }
    }

    /** Cassandra's refusal of a slice over values that hold durations (they have no order). */
    private static void checkSliceOnDurations(ColumnMetadata c) {
        if (!io.charybdis.node.schema.TypeResolver.referencesDuration(c.type())) {
            return;
        }
        TypeKind k = Types.kind(c.type());
        if (k.isCollection()) {
            throw new InvalidRequestException("Slice restrictions are not supported on collections containing "
                    + "durations");
        }
        if (k == TypeKind.TUPLE) {
            throw new InvalidRequestException("Slice restrictions are not supported on tuples containing durations");
        }
        if (k == TypeKind.UDT) {
            throw new InvalidRequestException("Slice restrictions are not supported on UDTs containing durations");
        }
        throw new InvalidRequestException("Slice restrictions are not supported on duration columns");
    }

    private static boolean isSliceOrEq(Operator op) {
        return op == Operator.EQ || isSliceOp(op);
    }

    private static boolean isSliceOp(Operator op) {
        return op == Operator.LT || op == Operator.LTE || op == Operator.GT || op == Operator.GTE;
    }

    private ColumnMetadata column(String name) {
        ColumnMetadata c = table.column(name);
        if (c == null) {
            throw new InvalidRequestException("Undefined column name " + name + " in table " + table);
        }
        return c;
    }

    // ---- execution-time accessors --------------------------------------------------------------------------------

    private static boolean isTokenFunction(Term.FunctionCall fc) {
        return fc.function().name().equalsIgnoreCase("token")
                && (fc.function().keyspace() == null || fc.function().keyspace().equalsIgnoreCase("system"));
    }

    /** {@code token(v1, ..., vn)} on the right-hand side: the token of the partition key made of those values. */
    private BoundValue tokenOf(Term.FunctionCall fc, TermBinder binder) {
        List<ColumnMetadata> pk = table.partitionKey();
        if (fc.args().size() != pk.size()) {
            throw new InvalidRequestException("Invalid number of arguments in call to function token: " + pk.size()
                    + " required but " + fc.args().size() + " provided");
        }
        BoundValue[] parts = new BoundValue[pk.size()];
        for (int i = 0; i < parts.length; i++) {
            // Cassandra names a marker in token(...) as any function argument, not after the key column, so a
            // prepared token restriction has no partition key indexes (cassandra-stress's token queries rely on it)
            parts[i] = binder.bind(fc.args().get(i), "arg" + i + "(system.token)", pk.get(i).type());
        }
        return ctx -> {
            ByteBuffer[] values = new ByteBuffer[parts.length];
            for (int i = 0; i < parts.length; i++) {
                values[i] = parts[i].bind(ctx);
                if (values[i] == Values.UNSET) {
                    throw new InvalidRequestException("Invalid unset value for argument in call to function token");
                }
                if (values[i] == null) {
                    throw new InvalidRequestException("Invalid null value for token() argument " + pk.get(i).name());
                }
            }
            return Values.bigint(Murmur3.token(PartitionKeyCodec.compose(values)));
        };
    }

    /** Whether a partition key column is restricted by IN. */
    public boolean partitionKeyIn() {
        return partitionKeyIn;
    }

    public boolean hasPartitionKeys() {
        for (List<BoundValue> v : pkValues) {
            if (v == null) {
                return false;
            }
        }
        return !pkValues.isEmpty();
    }

    public boolean hasTokenRestriction() {
        return hasTokenRestriction;
    }

    public List<Filter> filters() {
        return filters;
    }

    /**
     * The = restrictions of the clustering prefix that an index of the table could answer, as filters (a query
     * without its partition key searches through such an index, whose values Cassandra checks against 64K).
     */
    public List<Filter> indexableClusteringEqs() {
        List<Filter> out = new ArrayList<>();
        for (int i = 0; i < ckEqValues.size(); i++) {
            if (ckEqValues.get(i).size() != 1) {
                continue;
            }
            Filter f = new Filter(table.clustering().get(i), Operator.EQ, ckEqValues.get(i).get(0), null, null);
            if (ckInMarkers[i] == null && indexFor(table, f) != null) {
                out.add(f);
            }
        }
        return out;
    }

    public boolean hasClusteringRestrictions() {
        return !ckEqValues.isEmpty() || sliceStart != null || sliceEnd != null || hasMultiColumnIn;
    }

    /** Number of clustering columns fixed by = (only meaningful without IN). */
    public int clusteringEqPrefixLength() {
        return ckEqValues.size();
    }

    /** A partition to read: serialized key and token. */
    public record PartitionKey(ByteBuffer key, long token, ByteBuffer[] components) {
    }

    /** The partitions selected by key, in the order of their key values, without duplicates. */
    public List<PartitionKey> partitionKeys(BindContext ctx) {
        int n = table.partitionKey().size();
        List<List<ByteBuffer>> perColumn = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            perColumn.add(values(pkValues.get(i), pkInMarkers[i], table.partitionKey().get(i), ctx));
        }
        List<PartitionKey> out = new ArrayList<>();
        TreeSet<ByteBuffer> seen = new TreeSet<>();
        cartesian(perColumn, 0, new ByteBuffer[n], combo -> {
            checkKeyLength(combo);
            ByteBuffer key = PartitionKeyCodec.compose(combo);
            if (key.remaining() == 0) {
                throw new InvalidRequestException("Key may not be empty");
            }
            long token = Murmur3.token(key);
            if (seen.add(key) && inTokenRange(token, ctx)) {
                out.add(new PartitionKey(key, token, combo.clone()));
            }
        });
        // Cassandra reads the partitions of an IN in the order of their key values (not tokens).
        List<byte[]> order = new ArrayList<>(out.size());
        for (PartitionKey k : out) {
            io.charybdis.node.cql.keys.ByteSink sink = new io.charybdis.node.cql.keys.ByteSink(32);
            for (int i = 0; i < n; i++) {
                io.charybdis.node.cql.keys.ClusteringCodec.encodeComponent(table.partitionKey().get(i).type(),
                        k.components()[i], false, sink);
            }
            order.add(sink.toArray());
        }
        Integer[] idx = new Integer[out.size()];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        java.util.Arrays.sort(idx, (a, b) -> java.util.Arrays.compareUnsigned(order.get(a), order.get(b)));
        List<PartitionKey> sorted = new ArrayList<>(out.size());
        for (Integer i : idx) {
            sorted.add(out.get(i));
        }
        return sorted;
    }

    /** Cassandra's largest key: a partition key, or the clustering of a row written, of its values' sizes summed. */
    static final int MAX_KEY_LENGTH = 65535;

    /** Refuses a partition key or a written row's clustering longer than Cassandra's largest. */
    static void checkKeyLength(ByteBuffer[] values) {
        long length = 0;
        for (ByteBuffer v : values) {
            length += v == null ? 0 : v.remaining();
        }
        if (length > MAX_KEY_LENGTH) {
            throw new InvalidRequestException("Key length of " + length + " is longer than maximum of "
                    + MAX_KEY_LENGTH);
        }
    }

    /** With both key values and token() bounds (Cassandra allows it), the keys outside the bounds are dropped. */
    private boolean inTokenRange(long token, BindContext ctx) {
        ReadCommand.KeyBound start = tokenStart(ctx);
        ReadCommand.KeyBound end = tokenEnd(ctx);
        return (start == null || (start.inclusive() ? token >= start.token() : token > start.token()))
                && (end == null || (end.inclusive() ? token <= end.token() : token < end.token()));
    }

    private List<ByteBuffer> values(List<BoundValue> bound, BoundValue inMarker, ColumnMetadata c, BindContext ctx) {
        List<ByteBuffer> out = new ArrayList<>();
        if (inMarker != null) {
            ByteBuffer list = inMarker.bind(ctx);
            if (list == null) {
                throw new InvalidRequestException("Invalid null value for column " + c.name());
            }
            if (list == Values.UNSET) {
                throw new InvalidRequestException("Invalid unset value for column " + c.name());
            }
            out.addAll(Values.elements(list, false));
        } else {
            for (BoundValue b : bound) {
                ByteBuffer v = b.bind(ctx);
                if (v == null) {
                    throw new InvalidRequestException("Invalid null value in condition for column " + c.name());
                }
                if (v == Values.UNSET) {
                    throw new InvalidRequestException("Invalid unset value for column " + c.name());
                }
                out.add(v);
            }
        }
        return out;
    }

    private static void cartesian(List<List<ByteBuffer>> lists, int i, ByteBuffer[] acc,
                                  java.util.function.Consumer<ByteBuffer[]> sink) {
        if (i == lists.size()) {
            sink.accept(acc);
            return;
        }
        for (ByteBuffer v : lists.get(i)) {
            acc[i] = v;
            cartesian(lists, i + 1, acc, sink);
        }
    }

    /** Full clusterings selected by = / IN on every clustering column (for UPDATE, INSERT and row DELETE). */
    public List<ByteBuffer[]> clusterings(BindContext ctx) {
        int n = table.clustering().size();
        List<ByteBuffer[]> out = new ArrayList<>();
        if (hasMultiColumnIn) {
            // the prefix, column group by column group: the multi-column IN's tuples, the others' values
            List<ByteBuffer[]> tuples = multiColumnInTuples(ctx);
            List<ByteBuffer[]> acc = new ArrayList<>();
            acc.add(new ByteBuffer[0]);
            int first = multiColumnInColumns.get(0).position();
            for (int i = 0; i < multiInPrefixLength; ) {
                List<ByteBuffer[]> parts = new ArrayList<>();
                if (i == first) {
                    parts.addAll(tuples);
                } else {
                    for (ByteBuffer v : values(multiInOthers[i], ckInMarkers[i], table.clustering().get(i), ctx)) {
                        parts.add(new ByteBuffer[]{v});
                    }
                }
                List<ByteBuffer[]> next = new ArrayList<>();
                for (ByteBuffer[] a : acc) {
                    for (ByteBuffer[] p : parts) {
                        ByteBuffer[] joined = Arrays.copyOf(a, a.length + p.length);
                        System.arraycopy(p, 0, joined, a.length, p.length);
                        next.add(joined);
                    }
                }
                acc = next;
                i += i == first ? multiColumnInColumns.size() : 1;
            }
            return acc;
        }
        List<List<ByteBuffer>> perColumn = new ArrayList<>();
        for (int i = 0; i < ckEqValues.size(); i++) {
            perColumn.add(values(ckEqValues.get(i), ckInMarkers[i], table.clustering().get(i), ctx));
        }
        cartesian(perColumn, 0, new ByteBuffer[ckEqValues.size()], combo -> out.add(combo.clone()));
        return out;
    }

    /** The tuples of a multi-column IN, as given (literals or one marker for the list). */
    private List<ByteBuffer[]> multiColumnInTuples(BindContext ctx) {
        List<ByteBuffer[]> out = new ArrayList<>();
        int arity = multiColumnInColumns.size();
        if (multiColumnInMarker != null) {
            ByteBuffer list = multiColumnInMarker.bind(ctx);
            if (list == null) {
                throw new InvalidRequestException("Invalid null value for IN restriction");
            }
            if (list == Values.UNSET) {
                throw new InvalidRequestException("Invalid unset value for IN restriction");
            }
            for (ByteBuffer tuple : Values.elements(list, false)) {
                if (tuple == null) {
                    throw new InvalidRequestException("Invalid null value in IN restriction on "
                            + columnNames(multiColumnInColumns));
                }
                List<ByteBuffer> fields = Values.fields(tuple, arity);
                ByteBuffer[] values = new ByteBuffer[arity];
                for (int i = 0; i < arity; i++) {
                    if (fields.get(i) == null) {
                        throw new InvalidRequestException(inNullMessage(multiColumnInColumns));
                    }
                    values[i] = fields.get(i);
                }
                out.add(values);
            }
            return out;
        }
        for (List<BoundValue> tuple : multiColumnIn) {
            ByteBuffer[] values = new ByteBuffer[arity];
            for (int i = 0; i < arity; i++) {
                if (multiColumnIn.size() > 1 && tuple.get(i).bind(ctx) == null) {
                    throw new InvalidRequestException(inNullMessage(multiColumnInColumns));
                }
                values[i] = checkedValue(tuple.get(i), multiColumnInColumns.get(i), ctx);
            }
            out.add(values);
        }
        return out;
    }

    /** Cassandra's message for a null in a multi-column IN of several tuples (or a marker). */
    private static String inNullMessage(List<ColumnMetadata> cols) {
        List<String> names = new ArrayList<>();
        for (ColumnMetadata c : cols) {
            names.add(c.name());
        }
        return "Invalid null value in condition for columns: " + names;
    }

    private static String columnNames(List<ColumnMetadata> cols) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < cols.size(); i++) {
            b.append(i > 0 ? "," : "").append(cols.get(i).name());
        }
        return b.append(')').toString();
    }

    private static ByteBuffer checkedValue(BoundValue b, ColumnMetadata c, BindContext ctx) {
        ByteBuffer v = b.bind(ctx);
        if (v == null || v == Values.UNSET) {
            throw new InvalidRequestException("Invalid " + (v == null ? "null" : "unset") + " value for clustering "
                    + "column " + c.name());
        }
        return v;
    }

    /** Storage slices for the clustering restrictions, in clustering order (empty = whole partition). */
    public List<ReadCommand.Slice> slices(BindContext ctx) {
        if (!hasClusteringRestrictions()) {
            return List.of();
        }
        List<ReadCommand.Slice> out = new ArrayList<>();
        List<ByteBuffer[]> prefixes = clusterings(ctx);
        for (ByteBuffer[] prefix : prefixes) {
            byte[] p = ClusteringCodec.encodePrefix(table, padded(prefix), prefix.length);
            if (mixedOrder) {
                List<ReadCommand.Slice> ranges = List.of(new ReadCommand.Slice(p.length == 0 ? null : p,
                        ClusteringCodec.successor(p)));
                if (sliceStart != null) {
                    ranges = intersect(ranges, boundRanges(prefix, sliceStart, true, sliceStartInclusive, ctx));
                }
                if (sliceEnd != null) {
                    ranges = intersect(ranges, boundRanges(prefix, sliceEnd, false, sliceEndInclusive, ctx));
                }
                out.addAll(ranges);
                continue;
            }
            byte[] start = p;
            byte[] end = ClusteringCodec.successor(p);
            if (sliceStart != null) {
                byte[] s = boundBytes(prefix, sliceStart, ctx);
                start = sliceStartInclusive ? s : ClusteringCodec.successor(s);
            }
            if (sliceEnd != null) {
                byte[] e = boundBytes(prefix, sliceEnd, ctx);
                end = sliceEndInclusive ? ClusteringCodec.successor(e) : e;
            }
            if (p.length == 0 && sliceStart == null) {
                start = null;
            }
            if (start != null && end != null && Arrays.compareUnsigned(start, end) >= 0) {
                continue;
            }
            out.add(new ReadCommand.Slice(start, end));
        }
        return union(out);
    }

    /**
     * The storage ranges of one bound of a slice over the columns after {@code prefix}, whatever their ASC/DESC
     * order: as Cassandra, {@code (a, b, c) > (x, y, z)} is {@code a > x}, or {@code a = x AND b > y}, or
     * {@code a = x AND b = y AND c > z}, each one range of the storage order. {@code start}: the bound that starts
     * the slice in storage order (it is a lower bound on the values of the first column unless that is DESC).
     */
    private List<ReadCommand.Slice> boundRanges(ByteBuffer[] prefix, List<BoundValue> bound, boolean start,
                                                boolean inclusive, BindContext ctx) {
        int base = prefix.length;
        ByteBuffer[] all = padded(prefix);
        boolean greater = start != table.clustering().get(base).reversed();
        List<ReadCommand.Slice> out = new ArrayList<>();
        for (int i = 0; i < bound.size(); i++) {
            ColumnMetadata c = table.clustering().get(base + i);
            byte[] eq = ClusteringCodec.encodePrefix(table, all, base + i);
            all[base + i] = checkedValue(bound.get(i), c, ctx);
            byte[] withValue = ClusteringCodec.encodePrefix(table, all, base + i + 1);
            boolean last = i == bound.size() - 1;
            byte[] from;
            byte[] to;
            if (greater != c.reversed()) {
                from = last && inclusive ? withValue : ClusteringCodec.successor(withValue);
                to = ClusteringCodec.successor(eq);
            } else {
                from = eq.length == 0 ? null : eq;
                to = last && inclusive ? ClusteringCodec.successor(withValue) : withValue;
            }
            if (from != null && to != null && Arrays.compareUnsigned(from, to) >= 0) {
                continue;
            }
            out.add(new ReadCommand.Slice(from, to));
        }
        return union(out);
    }

    /** The intersection of two lists of disjoint slices in clustering order (null bounds are unbounded). */
    static List<ReadCommand.Slice> intersect(List<ReadCommand.Slice> a, List<ReadCommand.Slice> b) {
        List<ReadCommand.Slice> out = new ArrayList<>();
        for (ReadCommand.Slice x : a) {
            for (ReadCommand.Slice y : b) {
                byte[] from = x.start() == null ? y.start() : y.start() == null ? x.start()
                        : Arrays.compareUnsigned(x.start(), y.start()) >= 0 ? x.start() : y.start();
                byte[] to = x.end() == null ? y.end() : y.end() == null ? x.end()
                        : Arrays.compareUnsigned(x.end(), y.end()) <= 0 ? x.end() : y.end();
                if (from != null && to != null && Arrays.compareUnsigned(from, to) >= 0) {
                    continue;
                }
                out.add(new ReadCommand.Slice(from, to));
            }
        }
        return union(out);
    }

    /** Slices in clustering order, overlapping ones merged: what a read of all of them takes. */
    static List<ReadCommand.Slice> union(List<ReadCommand.Slice> slices) {
        List<ReadCommand.Slice> sorted = new ArrayList<>(slices);
        sorted.sort((a, b) -> a.start() == null ? (b.start() == null ? 0 : -1)
                : b.start() == null ? 1 : Arrays.compareUnsigned(a.start(), b.start()));
        return mergeOverlapping(sorted);
    }

    private static List<ReadCommand.Slice> mergeOverlapping(List<ReadCommand.Slice> sorted) {
        List<ReadCommand.Slice> out = new ArrayList<>();
        for (ReadCommand.Slice s : sorted) {
            if (!out.isEmpty()) {
                ReadCommand.Slice last = out.get(out.size() - 1);
                if (last.end() == null || s.start() == null || Arrays.compareUnsigned(s.start(), last.end()) < 0) {
                    byte[] end = last.end() == null || s.end() == null ? null
                            : Arrays.compareUnsigned(last.end(), s.end()) >= 0 ? last.end() : s.end();
                    out.set(out.size() - 1, new ReadCommand.Slice(last.start(), end));
                    continue;
                }
            }
            out.add(s);
        }
        return out;
    }

    private ByteBuffer[] padded(ByteBuffer[] prefix) {
        ByteBuffer[] all = new ByteBuffer[table.clustering().size()];
        System.arraycopy(prefix, 0, all, 0, prefix.length);
        return all;
    }

    private byte[] boundBytes(ByteBuffer[] prefix, List<BoundValue> bound, BindContext ctx) {
        ByteBuffer[] all = padded(prefix);
        for (int i = 0; i < bound.size(); i++) {
            all[prefix.length + i] = checkedValue(bound.get(i), table.clustering().get(prefix.length + i), ctx);
        }
        return ClusteringCodec.encodePrefix(table, all, prefix.length + bound.size());
    }

    /** Token range bounds for range reads; nulls when unbounded. */
    public ReadCommand.KeyBound tokenStart(BindContext ctx) {
        if (tokenStart == null) {
            return null;
        }
        return ReadCommand.KeyBound.token(tokenValue(tokenStart, ctx), tokenStartInclusive);
    }

    public ReadCommand.KeyBound tokenEnd(BindContext ctx) {
        if (tokenEnd == null) {
            return null;
        }
        return ReadCommand.KeyBound.token(tokenValue(tokenEnd, ctx), tokenEndInclusive);
    }

    private static long tokenValue(BoundValue v, BindContext ctx) {
        ByteBuffer b = v.bind(ctx);
        if (b == null || b == Values.UNSET) {
            throw new InvalidRequestException("Invalid null or unset value for token");
        }
        if (b.remaining() != 8) {
            throw new InvalidRequestException("Invalid empty value for token");
        }
        return b.getLong(b.position());
    }

    /** Whether the clustering restrictions select whole rows by = on every clustering column. */
    public boolean selectsFullClusterings() {
        return (ckEqValues.size() == table.clustering().size() || hasMultiColumnIn && multiInPrefixLength
                == table.clustering().size()) && sliceStart == null && sliceEnd == null;
    }

    public boolean hasClusteringIn() {
        return clusteringIn;
    }

    public boolean hasSlice() {
        if (sliceStart != null || sliceEnd != null) {
            return true;
        }
        // a slice after a gap in the clustering columns (kept as a filter for an UPDATE's own checks)
        for (Filter f : filters) {
            if (f.column().kind() == ColumnMetadata.Kind.CLUSTERING && isSliceOp(f.op())) {
                return true;
            }
        }
        return false;
    }
}

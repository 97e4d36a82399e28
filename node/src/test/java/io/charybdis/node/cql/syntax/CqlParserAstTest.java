package io.charybdis.node.cql.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.charybdis.node.cql.syntax.AuthStatement.Permission;
import io.charybdis.node.cql.syntax.CqlTypeSyntax.NativeType;
import io.charybdis.node.cql.syntax.Term.Literal;

/** The shape of the AST: key fields of each statement kind, terms, selectors, relations, types. */
class CqlParserAstTest {

    @SuppressWarnings("unchecked")
    private static <T extends Statement> T parse(String cql) {
        return (T) CqlParser.parse(cql);
    }

    private static Term where0(String condition) {
        SelectStatement s = parse("SELECT * FROM t WHERE a = " + condition);
        return ((Relation.SingleColumn) s.where().get(0)).value();
    }

    private static Literal lit(LiteralKind kind, String text) {
        return new Literal(kind, text);
    }

    // ---- literals and terms -------------------------------------------------------------------------------------

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "'text' | STRING | text",
            "'it''s' | STRING | it's",
            "$$dollar 'quoted'$$ | STRING | dollar 'quoted'",
            "42 | INTEGER | 42",
            "-42 | INTEGER | -42",
            "- 42 | INTEGER | -42",
            "3.25 | FLOAT | 3.25",
            "-1.5e10 | FLOAT | -1.5e10",
            "NaN | FLOAT | NaN",
            "-NaN | FLOAT | NaN",
            "Infinity | FLOAT | Infinity",
            "-Infinity | FLOAT | -Infinity",
            "TRUE | BOOLEAN | true",
            "false | BOOLEAN | false",
            "0xDEADbeef | HEX | 0xDEADbeef",
            "a8098c1a-f86e-11da-bd1a-00112444be1e | UUID | a8098c1a-f86e-11da-bd1a-00112444be1e",
            "1h30m | DURATION | 1h30m",
            "-2d | DURATION | -2d",
            "P3Y6M4DT12H30M5S | DURATION | P3Y6M4DT12H30M5S",
            "-PT1S | DURATION | -PT1S",
            "null | NULL | null",
    })
    void shouldParseEveryLiteralForm(String cql, LiteralKind kind, String text) {
        assertThat(where0(cql)).isEqualTo(lit(kind, text));
    }

    @Test
    void shouldParseCollectionsTuplesAndUdts() {
        Literal one = Literal.integer("1");
        Literal two = Literal.integer("2");
        assertThat(where0("[1, 2]")).isEqualTo(new Term.ListLiteral(List.of(one, two)));
        assertThat(where0("[]")).isEqualTo(new Term.ListLiteral(List.of()));
        assertThat(where0("{1, 2}")).isEqualTo(new Term.SetLiteral(List.of(one, two)));
        assertThat(where0("{1: 2}")).isEqualTo(new Term.MapLiteral(List.of(Map.entry(one, two))));
        assertThat(where0("{}")).isEqualTo(new Term.EmptyBraces());
        assertThat(where0("(1, 2)")).isEqualTo(new Term.TupleLiteral(List.of(one, two)));
        assertThat(where0("(1)")).isEqualTo(new Term.TupleLiteral(List.of(one)));
        Term.UdtLiteral udt = (Term.UdtLiteral) where0("{Street: 'x', \"Zip\": 2, key: {a: 1}}");
        assertThat(udt.fields().keySet()).containsExactly("street", "Zip", "key");
        assertThat(udt.fields().get("key")).isEqualTo(new Term.UdtLiteral(Map.of("a", one)));
    }

    @Test
    void shouldParseFunctionsCastsAndArithmetic() {
        assertThat(where0("now()")).isEqualTo(new Term.FunctionCall(QualifiedName.of("now"), List.of()));
        assertThat(where0("Ks.\"MyFn\"(1, 'a')")).isEqualTo(new Term.FunctionCall(new QualifiedName("ks", "MyFn"),
                List.of(Literal.integer("1"), Literal.string("a"))));
        assertThat(where0("token(1)")).isEqualTo(new Term.FunctionCall(QualifiedName.of("token"),
                List.of(Literal.integer("1"))));
        assertThat(where0("(bigint) 3")).isEqualTo(new Term.TypeCast(new CqlTypeSyntax.Native(NativeType.BIGINT),
                Literal.integer("3")));
        assertThat(where0("(frozen<list<int>>) ?")).isInstanceOf(Term.TypeCast.class);
        assertThat(where0("CAST(1 AS text)")).isEqualTo(new Term.Cast(Literal.integer("1"),
                new CqlTypeSyntax.Native(NativeType.TEXT)));
        assertThat(where0("1 + 2 * 3")).isEqualTo(new Term.BinaryOp(ArithmeticOperator.ADD, Literal.integer("1"),
                new Term.BinaryOp(ArithmeticOperator.MULTIPLY, Literal.integer("2"), Literal.integer("3"))));
        assertThat(where0("5 - 2 - 1")).isEqualTo(new Term.BinaryOp(ArithmeticOperator.SUBTRACT,
                new Term.BinaryOp(ArithmeticOperator.SUBTRACT, Literal.integer("5"), Literal.integer("2")),
                Literal.integer("1")));
        assertThat(where0("7 % 3 / 2")).isInstanceOfSatisfying(Term.BinaryOp.class,
                b -> assertThat(b.op()).isEqualTo(ArithmeticOperator.DIVIDE));
        assertThat(where0("- now()")).isEqualTo(new Term.Negation(new Term.FunctionCall(QualifiedName.of("now"),
                List.of())));
        // as Cassandra's lexer: '-' directly followed by 'n' must spell -NaN (recorded in ent_numbers)
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> where0("-now()"))
                .hasMessageContaining("mismatched character 'o' expecting set null");
        assertThat(where0("now() - 1d")).isEqualTo(new Term.BinaryOp(ArithmeticOperator.SUBTRACT,
                new Term.FunctionCall(QualifiedName.of("now"), List.of()), lit(LiteralKind.DURATION, "1d")));
    }

    @Test
    void shouldRenderTermsAsCql() {
        assertThat(where0("{'a': [1, -2], 'b': (1, 'x''y')}").toCql())
                .isEqualTo("{'a': [1, -2], 'b': (1, 'x''y')}");
        assertThat(where0("(int) ks.f(?, :n)").toCql()).isEqualTo("(int) ks.f(?, :n)");
    }

    // ---- identifiers --------------------------------------------------------------------------------------------

    @Test
    void shouldNormaliseIdentifierCase() {
        SelectStatement s = parse("SELECT MyCol, \"MyCol\", \"a\"\"b\", KEY, TTL FROM MyKs.\"MyTable\" WHERE \"\" = 1");
        assertThat(s.table()).isEqualTo(new QualifiedName("myks", "MyTable"));
        assertThat(s.selectors()).extracting(i -> ((Selector.Column) i.selector()).name())
                .containsExactly("mycol", "MyCol", "a\"b", "key", "ttl");
        assertThat(((Relation.SingleColumn) s.where().get(0)).column()).isEmpty();
    }

    // ---- SELECT -------------------------------------------------------------------------------------------------

    @Test
    void shouldParseAFullSelect() {
        SelectStatement s = parse("SELECT JSON DISTINCT a AS x, count(*) FROM ks.t WHERE a = 1 AND b IN (1, 2) "
                + "AND (c, d) > (1, 2) AND token(a) > ? AND m['k'] = 'v' AND s CONTAINS 3 AND v IS NOT NULL "
                + "GROUP BY a ORDER BY c DESC, d PER PARTITION LIMIT 2 LIMIT ? ALLOW FILTERING");
        assertThat(s.json()).isTrue();
        assertThat(s.distinct()).isTrue();
        assertThat(s.isWildcard()).isFalse();
        assertThat(s.selectors()).containsExactly(new Selector.Item(new Selector.Column("a"), "x"),
                new Selector.Item(new Selector.CountRows(), null));
        assertThat(s.table()).isEqualTo(new QualifiedName("ks", "t"));
        assertThat(s.where()).containsExactly(
                new Relation.SingleColumn("a", Operator.EQ, Literal.integer("1")),
                new Relation.In("b", Operator.IN, new InValues.Terms(List.of(Literal.integer("1"),
                        Literal.integer("2")))),
                new Relation.MultiColumn(List.of("c", "d"), Operator.GT,
                        new Term.TupleLiteral(List.of(Literal.integer("1"), Literal.integer("2")))),
                new Relation.Token(List.of("a"), Operator.GT, new Term.BindMarker(0, null)),
                new Relation.MapElement("m", Literal.string("k"), Operator.EQ, Literal.string("v")),
                new Relation.SingleColumn("s", Operator.CONTAINS, Literal.integer("3")),
                new Relation.IsNotNull("v"));
        assertThat(s.groupBy()).containsExactly(new Selector.Column("a"));
        assertThat(s.orderBy()).containsExactly(new SelectStatement.Ordering("c", null, true),
                new SelectStatement.Ordering("d", null, false));
        assertThat(s.perPartitionLimit()).isEqualTo(Literal.integer("2"));
        assertThat(s.limit()).isEqualTo(new Term.BindMarker(1, null));
        assertThat(s.allowFiltering()).isTrue();
    }

    @Test
    void shouldParseSelectorForms() {
        SelectStatement s = parse("SELECT writetime(a), maxwritetime(b), ttl(c.f), CAST(d AS int), m['k'], "
                + "l[1..3], l[..2], l[1..], u.f.g, f(a, 1), (int) ?, [a, 1], {a, b}, {x: 1}, (a, b), (a), a + b * 2, -a, "
                + "count(a), ks.fn() FROM t");
        List<Selector> sel = s.selectors().stream().map(Selector.Item::selector).toList();
        Selector a = new Selector.Column("a");
        assertThat(sel.get(0)).isEqualTo(new Selector.WriteTime(Selector.WriteTimeKind.WRITETIME, a));
        assertThat(sel.get(1)).isEqualTo(new Selector.WriteTime(Selector.WriteTimeKind.MAXWRITETIME,
                new Selector.Column("b")));
        assertThat(sel.get(2)).isEqualTo(new Selector.WriteTime(Selector.WriteTimeKind.TTL,
                new Selector.FieldAccess(new Selector.Column("c"), "f")));
        assertThat(sel.get(3)).isEqualTo(new Selector.Cast(new Selector.Column("d"),
                new CqlTypeSyntax.Native(NativeType.INT)));
        assertThat(sel.get(4)).isEqualTo(new Selector.ElementAccess(new Selector.Column("m"), Literal.string("k")));
        assertThat(sel.get(5)).isEqualTo(new Selector.SliceAccess(new Selector.Column("l"), Literal.integer("1"),
                Literal.integer("3")));
        assertThat(sel.get(6)).isEqualTo(new Selector.SliceAccess(new Selector.Column("l"), null,
                Literal.integer("2")));
        assertThat(sel.get(7)).isEqualTo(new Selector.SliceAccess(new Selector.Column("l"), Literal.integer("1"),
                null));
        assertThat(sel.get(8)).isEqualTo(new Selector.FieldAccess(new Selector.FieldAccess(
                new Selector.Column("u"), "f"), "g"));
        assertThat(sel.get(9)).isEqualTo(new Selector.FunctionCall(QualifiedName.of("f"),
                List.of(a, new Selector.Value(Literal.integer("1")))));
        assertThat(sel.get(10)).isEqualTo(new Selector.TypeHint(new CqlTypeSyntax.Native(NativeType.INT),
                new Selector.Value(new Term.BindMarker(0, null))));
        assertThat(sel.get(11)).isInstanceOf(Selector.ListSelector.class);
        assertThat(sel.get(12)).isInstanceOf(Selector.SetSelector.class);
        assertThat(sel.get(13)).isInstanceOf(Selector.MapOrUdtSelector.class);
        assertThat(sel.get(14)).isEqualTo(new Selector.TupleSelector(List.of(a, new Selector.Column("b"))));
        assertThat(sel.get(15)).isEqualTo(new Selector.Parenthesized(a));
        assertThat(sel.get(16)).isEqualTo(new Selector.BinaryOp(ArithmeticOperator.ADD, a,
                new Selector.BinaryOp(ArithmeticOperator.MULTIPLY, new Selector.Column("b"),
                        new Selector.Value(Literal.integer("2")))));
        assertThat(sel.get(17)).isEqualTo(new Selector.Negation(a));
        assertThat(sel.get(18)).isEqualTo(new Selector.FunctionCall(QualifiedName.of("count"), List.of(a)));
        assertThat(sel.get(19)).isEqualTo(new Selector.FunctionCall(new QualifiedName("ks", "fn"), List.of()));
    }

    @Test
    void shouldKeepTheParenthesesOfAnItemWrittenWholeInOnePair() {
        SelectStatement s = parse("SELECT (a), ((a)), (a) + 1, (a) AS x, (a + 1), ((a + 1)), (a + 1) * 2, -(a), "
                + "(int)(a), ((int)a), (a, b), [(a)] FROM t");
        List<Selector> sel = s.selectors().stream().map(Selector.Item::selector).toList();
        Selector a = new Selector.Column("a");
        Selector one = new Selector.Value(Literal.integer("1"));
        assertThat(sel.get(0)).isEqualTo(new Selector.Parenthesized(a));
        assertThat(sel.get(1)).isEqualTo(new Selector.Parenthesized(new Selector.Parenthesized(a)));
        assertThat(sel.get(2)).isEqualTo(new Selector.BinaryOp(ArithmeticOperator.ADD, a, one));
        assertThat(sel.get(3)).isEqualTo(new Selector.Parenthesized(a));
        assertThat(s.selectors().get(3).alias()).isEqualTo("x");
        // an operation counts its own parentheses: the item's pair becomes the Parenthesized
        assertThat(sel.get(4)).isEqualTo(new Selector.Parenthesized(new Selector.BinaryOp(ArithmeticOperator.ADD, a,
                one)));
        assertThat(sel.get(5)).isEqualTo(new Selector.Parenthesized(new Selector.BinaryOp(ArithmeticOperator.ADD, a,
                one, 1)));
        assertThat(sel.get(6)).isEqualTo(new Selector.BinaryOp(ArithmeticOperator.MULTIPLY,
                new Selector.BinaryOp(ArithmeticOperator.ADD, a, one, 1), new Selector.Value(Literal.integer("2"))));
        assertThat(sel.get(7)).isInstanceOf(Selector.Negation.class);
        assertThat(sel.get(8)).isInstanceOf(Selector.TypeHint.class);
        assertThat(sel.get(9)).isEqualTo(new Selector.Parenthesized(new Selector.TypeHint(
                new CqlTypeSyntax.Native(NativeType.INT), a, false)));
        assertThat(sel.get(10)).isEqualTo(new Selector.TupleSelector(List.of(a, new Selector.Column("b"))));
        assertThat(sel.get(11)).isEqualTo(new Selector.ListSelector(List.of(new Selector.Parenthesized(a))));
    }

    @Test
    void shouldTellKeywordsUsedAsColumnsFromModifiers() {
        SelectStatement json = parse("SELECT json, distinct, ttl, writetime, count FROM t");
        assertThat(json.json()).isFalse();
        assertThat(json.distinct()).isFalse();
        assertThat(json.selectors()).hasSize(5);
        SelectStatement distinct = parse("SELECT DISTINCT json FROM t");
        assertThat(distinct.distinct()).isTrue();
        assertThat(distinct.selectors()).containsExactly(new Selector.Item(new Selector.Column("json"), null));
        SelectStatement jsonStar = parse("SELECT JSON * FROM t");
        assertThat(jsonStar.json()).isTrue();
        assertThat(jsonStar.isWildcard()).isTrue();
    }

    @Test
    void shouldParseVectorSearchAndCustomExpressions() {
        SelectStatement s = parse("SELECT * FROM t WHERE expr(idx, 'q') ORDER BY v ANN OF [1.0, 2.0] LIMIT 3");
        assertThat(s.where()).containsExactly(new Relation.CustomIndexExpression(QualifiedName.of("idx"),
                Literal.string("q")));
        assertThat(s.orderBy().get(0).annOf()).isEqualTo(new Term.ListLiteral(List.of(
                new Literal(LiteralKind.FLOAT, "1.0"), new Literal(LiteralKind.FLOAT, "2.0"))));
    }

    @Test
    void shouldParseMultiColumnAndInForms() {
        SelectStatement s = parse("SELECT * FROM t WHERE (a, b) IN ((1, 2), (3, ?)) AND (c) IN ? AND d IN ? "
                + "AND e IN () AND (f, g) = ? AND h NOT IN (1) AND i BETWEEN 1 AND 2 AND (j, k) IN ()");
        assertThat(s.where().get(0)).isEqualTo(new Relation.MultiColumnIn(List.of("a", "b"), Operator.IN,
                new InValues.Terms(List.of(new Term.TupleLiteral(List.of(Literal.integer("1"), Literal.integer("2"))),
                        new Term.TupleLiteral(List.of(Literal.integer("3"), new Term.BindMarker(0, null)))))));
        assertThat(s.where().get(1)).isEqualTo(new Relation.MultiColumnIn(List.of("c"), Operator.IN,
                new InValues.Marker(new Term.BindMarker(1, null))));
        assertThat(s.where().get(2)).isEqualTo(new Relation.In("d", Operator.IN,
                new InValues.Marker(new Term.BindMarker(2, null))));
        assertThat(s.where().get(3)).isEqualTo(new Relation.In("e", Operator.IN, new InValues.Terms(List.of())));
        assertThat(s.where().get(4)).isEqualTo(new Relation.MultiColumn(List.of("f", "g"), Operator.EQ,
                new Term.BindMarker(3, null)));
        // as Cassandra's grammar: a multi-column IN list holds tuple literals or markers, never both
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> parse("SELECT * FROM t WHERE (a, b) IN ((1, 2), ?)"))
                .isInstanceOf(CqlSyntaxException.class).hasMessageStartingWith("line 1:41 no viable alternative at input '?'");
        assertThat(s.where().get(5)).isEqualTo(new Relation.In("h", Operator.NOT_IN,
                new InValues.Terms(List.of(Literal.integer("1")))));
        assertThat(s.where().get(6)).isEqualTo(new Relation.Between("i", Literal.integer("1"), Literal.integer("2")));
        assertThat(s.where().get(7)).isEqualTo(new Relation.MultiColumnIn(List.of("j", "k"), Operator.IN,
                new InValues.Terms(List.of())));
    }

    // ---- modifications ------------------------------------------------------------------------------------------

    @Test
    void shouldParseInsert() {
        InsertStatement i = parse("INSERT INTO ks.t (a, \"B\") VALUES (1, 'x') IF NOT EXISTS USING TTL 10 AND TIMESTAMP 5");
        assertThat(i.table()).isEqualTo(new QualifiedName("ks", "t"));
        assertThat(i.columns()).containsExactly("a", "B");
        assertThat(i.values()).containsExactly(Literal.integer("1"), Literal.string("x"));
        assertThat(i.ifNotExists()).isTrue();
        assertThat(i.attributes()).isEqualTo(new Attributes(Literal.integer("5"), Literal.integer("10")));
        InsertJsonStatement j = parse("INSERT INTO t JSON '{\"a\": 1}' DEFAULT UNSET");
        assertThat(j.json()).isEqualTo(Literal.string("{\"a\": 1}"));
        assertThat(j.defaultUnset()).isTrue();
        assertThat(j.attributes().isEmpty()).isTrue();
    }

    @Test
    void shouldParseEveryAssignmentForm() {
        UpdateStatement u = parse("UPDATE t USING TIMESTAMP 1 SET a = 1, b = b + 2, c = c - {1}, d = [0] + d, "
                + "e[1] = 'x', f.g = 3, h += 4, i -= [5] WHERE k = 1");
        assertThat(u.attributes().timestamp()).isEqualTo(Literal.integer("1"));
        assertThat(u.assignments()).containsExactly(
                new Assignment.SetValue("a", Literal.integer("1")),
                new Assignment.Add("b", Literal.integer("2")),
                new Assignment.Subtract("c", new Term.SetLiteral(List.of(Literal.integer("1")))),
                new Assignment.Prepend("d", new Term.ListLiteral(List.of(Literal.integer("0")))),
                new Assignment.SetElement("e", Literal.integer("1"), Literal.string("x")),
                new Assignment.SetField("f", "g", Literal.integer("3")),
                new Assignment.Add("h", Literal.integer("4")),
                new Assignment.Subtract("i", new Term.ListLiteral(List.of(Literal.integer("5")))));
        assertThat(parse("UPDATE t SET c = c - 1 WHERE k = 1") instanceof UpdateStatement up
                && up.assignments().get(0).equals(new Assignment.Subtract("c", Literal.integer("1")))).isTrue();
    }

    @Test
    void shouldParseConditions() {
        UpdateStatement u = parse("UPDATE t SET a = 1 WHERE k = 1 IF a = 1 AND b != null AND m['k'] > 2 "
                + "AND m['j'] IN (1, 2) AND u.f = 3 AND u.g IN ? AND c IN (4) AND l CONTAINS 5 AND m CONTAINS KEY 'z'");
        assertThat(u.ifExists()).isFalse();
        assertThat(u.conditions()).containsExactly(
                new Condition.Simple("a", Operator.EQ, Literal.integer("1")),
                new Condition.Simple("b", Operator.NEQ, Literal.NULL),
                new Condition.Element("m", Literal.string("k"), Operator.GT, Literal.integer("2")),
                new Condition.ElementIn("m", Literal.string("j"),
                        new InValues.Terms(List.of(Literal.integer("1"), Literal.integer("2")))),
                new Condition.Field("u", "f", Operator.EQ, Literal.integer("3")),
                new Condition.FieldIn("u", "g", new InValues.Marker(new Term.BindMarker(0, null))),
                new Condition.In("c", new InValues.Terms(List.of(Literal.integer("4")))),
                new Condition.Simple("l", Operator.CONTAINS, Literal.integer("5")),
                new Condition.Simple("m", Operator.CONTAINS_KEY, Literal.string("z")));
        DeleteStatement d = parse("DELETE FROM t WHERE k = 1 IF EXISTS");
        assertThat(d.ifExists()).isTrue();
        assertThat(d.conditions()).isEmpty();
    }

    @Test
    void shouldParseDelete() {
        DeleteStatement d = parse("DELETE a, m['k'], u.f FROM t USING TIMESTAMP 9 WHERE k = 1");
        assertThat(d.targets()).containsExactly(new DeleteStatement.Target.Column("a"),
                new DeleteStatement.Target.Element("m", Literal.string("k")),
                new DeleteStatement.Target.Field("u", "f"));
        assertThat(d.attributes()).isEqualTo(new Attributes(Literal.integer("9"), null));
        assertThat(((DeleteStatement) parse("DELETE FROM t WHERE k = 1")).targets()).isEmpty();
    }

    @Test
    void shouldParseBatch() {
        BatchStatement b = parse("BEGIN UNLOGGED BATCH USING TIMESTAMP 3 INSERT INTO t (a) VALUES (?); "
                + "UPDATE t SET a = ? WHERE k = ?; DELETE FROM t WHERE k = ? APPLY BATCH;");
        assertThat(b.type()).isEqualTo(BatchStatement.Type.UNLOGGED);
        assertThat(b.attributes().timestamp()).isEqualTo(Literal.integer("3"));
        assertThat(b.statements()).hasSize(3);
        assertThat(b.statements().get(2)).isInstanceOf(DeleteStatement.class);
    }

    // ---- bind markers -------------------------------------------------------------------------------------------

    @Test
    void shouldNumberBindMarkersInOrderAcrossTheStatement() {
        ParsedStatement p = CqlParser.prepare("BEGIN BATCH USING TIMESTAMP ? INSERT INTO t (a, b) VALUES (?, :b) "
                + "USING TTL :ttl; UPDATE t SET l = l + [?] WHERE k IN ? AND c = :\"Mixed\" IF v = ?; APPLY BATCH");
        assertThat(p.bindMarkerCount()).isEqualTo(8);
        assertThat(p.bindMarkers()).extracting(Term.BindMarker::index).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(p.bindMarkers()).extracting(Term.BindMarker::name)
                .containsExactly(null, null, "b", "ttl", null, null, "Mixed", null);
    }

    @Test
    void shouldNotCountMarkersOfAbandonedAlternatives() {
        ParsedStatement p = CqlParser.prepare("SELECT JSON ? FROM t WHERE a = (int) ? AND b = (?, ?) LIMIT ?");
        assertThat(p.bindMarkers()).extracting(Term.BindMarker::index).containsExactly(0, 1, 2, 3, 4);
        ParsedStatement json = CqlParser.prepare("INSERT INTO t JSON ?");
        assertThat(json.bindMarkerCount()).isEqualTo(1);
        assertThat(CqlParser.prepare("SELECT * FROM t").bindMarkerCount()).isZero();
    }

    @Test
    void shouldNumberMarkersPerStatementInScripts() {
        List<ParsedStatement> script = CqlParser.prepareScript("SELECT ? FROM t; ; INSERT INTO t (a, b) VALUES (?, ?);");
        assertThat(script).hasSize(2);
        assertThat(script.get(0).bindMarkerCount()).isEqualTo(1);
        assertThat(script.get(1).bindMarkers()).extracting(Term.BindMarker::index).containsExactly(0, 1);
        assertThat(CqlParser.parseScript("")).isEmpty();
        assertThat(CqlParser.parseScript(" ;; -- nothing\n")).isEmpty();
    }

    // ---- schema -------------------------------------------------------------------------------------------------

    @Test
    void shouldParseCreateTable() {
        SchemaStatement.CreateTable t = parse("CREATE TABLE IF NOT EXISTS ks.t (a int, b text, c list<int> static, "
                + "d frozen<tuple<int, text>> MASKED WITH DEFAULT, PRIMARY KEY ((a, b), c)) WITH CLUSTERING ORDER BY "
                + "(c DESC) AND COMPACT STORAGE AND comment = 'x' AND compaction = {'class': 'LCS', 'n': 4}");
        assertThat(t.table()).isEqualTo(new QualifiedName("ks", "t"));
        assertThat(t.ifNotExists()).isTrue();
        assertThat(t.columns()).extracting(SchemaStatement.ColumnDefinition::name).containsExactly("a", "b", "c", "d");
        assertThat(t.columns().get(2).isStatic()).isTrue();
        assertThat(t.columns().get(2).type()).isEqualTo(new CqlTypeSyntax.ListType(
                new CqlTypeSyntax.Native(NativeType.INT)));
        assertThat(t.columns().get(3).mask().function()).isEqualTo(QualifiedName.of("mask_default"));
        assertThat(t.primaryKey()).isEqualTo(new SchemaStatement.PrimaryKey(List.of("a", "b"), List.of("c")));
        assertThat(t.clusteringOrder()).containsExactly(new SchemaStatement.ClusteringOrder("c", true));
        assertThat(t.compactStorage()).isTrue();
        assertThat(t.properties().getString("comment")).isEqualTo("x");
        assertThat(t.properties().getMap("compaction")).containsExactly(Map.entry("class", "LCS"),
                Map.entry("n", "4"));
        SchemaStatement.CreateTable inline = parse("CREATE TABLE t (k int PRIMARY KEY, v int)");
        assertThat(inline.primaryKey()).isEqualTo(new SchemaStatement.PrimaryKey(List.of("k"), List.of()));
        assertThat(((SchemaStatement.CreateTable) parse("CREATE TABLE t (k int, v int)")).primaryKey()).isNull();
    }

    @Test
    void shouldParseTypes() {
        SchemaStatement.CreateType t = parse("CREATE TYPE ks.ty (a vector<float, 3>, b map<text, frozen<ks.other>>, "
                + "c set<uuid>, d 'org.Custom', e tuple<int, tuple<int>>, f timeuuid)");
        assertThat(t.type()).isEqualTo(new QualifiedName("ks", "ty"));
        assertThat(t.fields()).extracting(f -> f.type().toCql()).containsExactly("vector<float, 3>",
                "map<text, frozen<ks.other>>", "set<uuid>", "'org.Custom'", "tuple<int, tuple<int>>", "timeuuid");
        assertThat(t.fields().get(0).type()).isEqualTo(new CqlTypeSyntax.VectorType(
                new CqlTypeSyntax.Native(NativeType.FLOAT), 3));
    }

    @Test
    void shouldParseAlterTableActions() {
        assertThat(((SchemaStatement.AlterTable) parse("ALTER TABLE t ADD (a int, b set<text> static)")).action())
                .isInstanceOfSatisfying(SchemaStatement.AddColumns.class, a -> {
                    assertThat(a.columns()).hasSize(2);
                    assertThat(a.columns().get(1).isStatic()).isTrue();
                });
        assertThat(((SchemaStatement.AlterTable) parse("ALTER TABLE t DROP (a, b) USING TIMESTAMP 42")).action())
                .isEqualTo(new SchemaStatement.DropColumns(false, List.of("a", "b"), 42L));
        assertThat(((SchemaStatement.AlterTable) parse("ALTER TABLE t RENAME a TO b AND c TO d")).action())
                .isEqualTo(new SchemaStatement.RenameColumns(false, List.of(new SchemaStatement.Rename("a", "b"),
                        new SchemaStatement.Rename("c", "d"))));
        assertThat(((SchemaStatement.AlterTable) parse("ALTER TABLE t ALTER a TYPE text")).action())
                .isEqualTo(new SchemaStatement.AlterColumnType("a", new CqlTypeSyntax.Native(NativeType.TEXT)));
        assertThat(((SchemaStatement.AlterTable) parse("ALTER TABLE t WITH comment = 'c'")).action())
                .isInstanceOf(SchemaStatement.AlterTableOptions.class);
    }

    @Test
    void shouldParseIndexesViewsFunctionsAggregates() {
        SchemaStatement.CreateIndex idx = parse("CREATE CUSTOM INDEX IF NOT EXISTS i ON ks.t (keys(m), v) "
                + "USING 'StorageAttachedIndex' WITH OPTIONS = {'k': 'v'}");
        assertThat(idx.custom()).isTrue();
        assertThat(idx.name()).isEqualTo("i");
        assertThat(idx.targets()).containsExactly(
                new SchemaStatement.IndexTarget("m", SchemaStatement.IndexTargetKind.KEYS),
                new SchemaStatement.IndexTarget("v", SchemaStatement.IndexTargetKind.SIMPLE));
        assertThat(idx.usingClass()).isEqualTo("StorageAttachedIndex");
        assertThat(idx.properties().getMap("options")).containsEntry("k", "v");

        SchemaStatement.CreateView v = parse("CREATE MATERIALIZED VIEW mv AS SELECT a, b FROM t "
                + "WHERE a IS NOT NULL AND b IS NOT NULL PRIMARY KEY (b, a) WITH CLUSTERING ORDER BY (a DESC)");
        assertThat(v.baseTable()).isEqualTo(QualifiedName.of("t"));
        assertThat(v.where()).hasSize(2);
        assertThat(v.primaryKey()).isEqualTo(new SchemaStatement.PrimaryKey(List.of("b"), List.of("a")));

        SchemaStatement.CreateFunction f = parse("CREATE OR REPLACE FUNCTION ks.f(a int, \"B\" text) "
                + "RETURNS NULL ON NULL INPUT RETURNS text LANGUAGE Java AS $$ return b; $$");
        assertThat(f.orReplace()).isTrue();
        assertThat(f.calledOnNullInput()).isFalse();
        assertThat(f.arguments()).extracting(SchemaStatement.FunctionArgument::name).containsExactly("a", "B");
        assertThat(f.language()).isEqualTo("java");
        assertThat(f.body()).isEqualTo(" return b; ");

        SchemaStatement.CreateAggregate agg = parse("CREATE AGGREGATE a(int) SFUNC s STYPE int FINALFUNC f INITCOND 0");
        assertThat(agg.stateFunction()).isEqualTo("s");
        assertThat(agg.finalFunction()).isEqualTo("f");
        assertThat(agg.initCond()).isEqualTo(Literal.integer("0"));

        assertThat(((SchemaStatement.DropFunction) parse("DROP FUNCTION f")).argumentTypes()).isNull();
        assertThat(((SchemaStatement.DropFunction) parse("DROP FUNCTION f()")).argumentTypes()).isEmpty();
    }

    // ---- auth and describe --------------------------------------------------------------------------------------

    @Test
    void shouldParseRolesAndPermissions() {
        AuthStatement.CreateRole r = parse("CREATE ROLE IF NOT EXISTS Bob WITH PASSWORD = 'pw' AND LOGIN = true "
                + "AND SUPERUSER = false AND OPTIONS = {'a': 1} AND ACCESS TO DATACENTERS {'dc1', 'dc2'}");
        assertThat(r.role()).isEqualTo("bob");
        assertThat(r.options().password()).isEqualTo("pw");
        assertThat(r.options().login()).isTrue();
        assertThat(r.options().superuser()).isFalse();
        assertThat(r.options().options()).containsEntry("a", "1");
        assertThat(r.options().datacenters()).isEqualTo(new AuthStatement.Access(false, List.of("dc1", "dc2")));
        assertThat(((AuthStatement.CreateRole) parse("CREATE ROLE 'Bob'")).role()).isEqualTo("Bob");
        assertThat(((AuthStatement.CreateUser) parse("CREATE USER Bob WITH PASSWORD 'x'")).user()).isEqualTo("Bob");

        AuthStatement.GrantPermissions g = parse("GRANT SELECT, MODIFY ON ALL TABLES IN KEYSPACE ks TO r");
        assertThat(g.permissions()).containsExactlyInAnyOrder(Permission.SELECT, Permission.MODIFY);
        assertThat(g.resource()).isEqualTo(new AuthStatement.Resource.AllTablesInKeyspace("ks"));
        assertThat(((AuthStatement.GrantPermissions) parse("GRANT EXECUTE ON FUNCTION ks.f(int, text) TO r")).resource())
                .isEqualTo(new AuthStatement.Resource.Function(new QualifiedName("ks", "f"),
                        List.of(new CqlTypeSyntax.Native(NativeType.INT), new CqlTypeSyntax.Native(NativeType.TEXT))));
        assertThat(((AuthStatement.GrantPermissions) parse("GRANT ALL ON role TO r")).resource())
                .isEqualTo(new AuthStatement.Resource.Table(QualifiedName.of("role")));
        assertThat(((AuthStatement.GrantPermissions) parse("GRANT ALL ON ROLE admin TO r")).resource())
                .isEqualTo(new AuthStatement.Resource.Role("admin"));
        assertThat(CqlParser.parse("GRANT all TO r")).isEqualTo(new AuthStatement.GrantRole("all", "r"));
        AuthStatement.ListPermissions l = parse("LIST ALL");
        assertThat(l.all()).isTrue();
        assertThat(l.resource()).isNull();
        assertThat(l.recursive()).isTrue();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "DESCRIBE CLUSTER | CLUSTER | - | false | false",
            "DESC SCHEMA | SCHEMA | - | false | false",
            "DESC FULL SCHEMA | FULL_SCHEMA | - | false | false",
            "DESC KEYSPACES | KEYSPACES | - | false | false",
            "DESC KEYSPACE | KEYSPACE | - | false | false",
            "DESC ONLY KEYSPACE Ks WITH INTERNALS | KEYSPACE | ks | true | true",
            "DESC TABLES | TABLES | - | false | false",
            "DESC TABLE ks.t | TABLE | ks.t | false | false",
            "DESC INDEX ks.i | INDEX | ks.i | false | false",
            "DESC MATERIALIZED VIEW v | MATERIALIZED_VIEW | v | false | false",
            "DESC TYPES | TYPES | - | false | false",
            "DESC TYPE ks.ty | TYPE | ks.ty | false | false",
            "DESC FUNCTIONS | FUNCTIONS | - | false | false",
            "DESC FUNCTION ks.f | FUNCTION | ks.f | false | false",
            "DESC AGGREGATES | AGGREGATES | - | false | false",
            "DESC AGGREGATE a | AGGREGATE | a | false | false",
            "DESC ks.t | GENERIC | ks.t | false | false",
            "DESC something | GENERIC | something | false | false",
            "DESC cluster.t | GENERIC | cluster.t | false | false",
            "DESC only | GENERIC | only | false | false",
            "DESCRIBE tables WITH INTERNALS | TABLES | - | false | true",
    })
    void shouldParseDescribe(String cql, DescribeStatement.Kind kind, String name, boolean only, boolean internals) {
        DescribeStatement d = parse(cql);
        assertThat(d.kind()).isEqualTo(kind);
        assertThat(d.name() == null ? null : d.name().toCql()).isEqualTo(name);
        assertThat(d.only()).isEqualTo(only);
        assertThat(d.withInternals()).isEqualTo(internals);
    }
}

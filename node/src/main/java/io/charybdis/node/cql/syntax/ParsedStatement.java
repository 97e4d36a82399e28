package io.charybdis.node.cql.syntax;

import java.util.List;

/** A statement with its bind markers in order of appearance ({@code bindMarkers().get(i).index() == i}). */
public record ParsedStatement(Statement statement, List<Term.BindMarker> bindMarkers) {
    public ParsedStatement {
        bindMarkers = List.copyOf(bindMarkers);
    }

    public int bindMarkerCount() {
        return bindMarkers.size();
    }
}

package io.charybdis.node.tools;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Rows of cells printed as nodetool prints its tables: each cell padded to its column's width, joined by a delimiter. */
final class TextTable {
    private final String delimiter;
    private final List<String[]> rows = new ArrayList<>();
    private int[] widths = new int[0];

    TextTable(String delimiter) {
        this.delimiter = delimiter;
    }

    void add(String... cells) {
        if (cells.length > widths.length) {
            widths = java.util.Arrays.copyOf(widths, cells.length);
        }
        for (int i = 0; i < cells.length; i++) {
            widths[i] = Math.max(widths[i], cells[i].length());
        }
        rows.add(cells);
    }

    void printTo(PrintStream out) {
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < widths.length; i++) { // a short row is padded as if its missing cells were empty
                String cell = i < row.length ? row[i] : "";
                if (i > 0) {
                    line.append(delimiter);
                }
                line.append(cell);
                line.append(" ".repeat(widths[i] - cell.length()));
            }
            out.println(line);
        }
    }
}

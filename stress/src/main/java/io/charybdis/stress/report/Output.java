package io.charybdis.stress.report;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** The report stream: standard output, and also the {@code -log file=} when one is given. */
public final class Output implements AutoCloseable {

    private final PrintStream out;
    private final OutputStream file;

    public Output(PrintStream console, String logFile) throws IOException {
        if (logFile == null) {
            this.file = null;
            this.out = console;
        } else {
            this.file = new FileOutputStream(logFile);
            OutputStream tee = new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    console.write(b);
                    file.write(b);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    console.write(b, off, len);
                    file.write(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    console.flush();
                    file.flush();
                }
            };
            this.out = new PrintStream(tee, true, StandardCharsets.UTF_8);
        }
    }

    public PrintStream stream() {
        return out;
    }

    @Override
    public void close() throws IOException {
        out.flush();
        if (file != null) {
            file.close();
        }
    }
}

package io.charybdis.storage;

import io.charybdis.storage.read.ReadResult;

/** Outcome of {@link Storage#atomically}: what was read, and whether the decided mutation was applied. */
public record CasResult(ReadResult current, boolean applied) {
}

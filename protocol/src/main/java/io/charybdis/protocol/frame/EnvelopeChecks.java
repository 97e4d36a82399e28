package io.charybdis.protocol.frame;

import io.charybdis.protocol.EnvelopeHeader;
import io.charybdis.protocol.Opcode;
import io.charybdis.protocol.ProtocolException;
import io.charybdis.protocol.ProtocolVersion;

/** Header checks shared by the v4 and v5 decoders. */
final class EnvelopeChecks {
    private EnvelopeChecks() {
    }

    /**
     * Returns the error for a well-framed envelope that cannot be accepted (wrong direction, unknown opcode, version
     * differing from the connection's), or null. Such errors are non-fatal: the body has a known length.
     */
    static ProtocolException check(int versionByte, ProtocolVersion connectionVersion, boolean expectRequests,
                                   int streamId, int opcodeCode) {
        int versionCode = versionByte & EnvelopeHeader.VERSION_MASK;
        if (connectionVersion != null && versionCode != connectionVersion.code()) {
            return new ProtocolException("Invalid message version. Got " + versionCode
                    + " but previous messages on this connection had version " + connectionVersion.code(),
                    streamId, false);
        }
        Opcode opcode = Opcode.fromCode(opcodeCode);
        if (opcode == null) {
            return new ProtocolException("Unknown opcode " + opcodeCode, streamId, false);
        }
        boolean response = (versionByte & EnvelopeHeader.RESPONSE_BIT) != 0;
        String expected = expectRequests ? "REQUEST" : "RESPONSE";
        if (response == expectRequests) {
            return new ProtocolException("Wrong protocol direction (expected " + expected + ", got "
                    + (response ? "RESPONSE" : "REQUEST") + ") for opcode " + opcodeCode + " (" + opcode + ")",
                    streamId, false);
        }
        if (opcode.isRequest() != expectRequests) {
            return new ProtocolException("Wrong protocol direction (expected " + expected + ", got "
                    + (opcode.isRequest() ? "REQUEST" : "RESPONSE") + ") for opcode " + opcodeCode + " (" + opcode
                    + ")", streamId, false);
        }
        return null;
    }
}

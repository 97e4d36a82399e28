package io.charybdis.protocol.response;

import io.charybdis.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/** EVENT bodies: {@code <type:string>} then the event's own fields. Events go on stream -1. */
public sealed interface Event permits Event.TopologyChange, Event.StatusChange, SchemaChange {

    /** TOPOLOGY_CHANGE, STATUS_CHANGE or SCHEMA_CHANGE. */
    String type();

    /** Writes the fields after the type string. */
    void writeBody(ByteBuf out);

    enum TopologyChangeType { NEW_NODE, REMOVED_NODE, MOVED_NODE }

    enum StatusChangeType { UP, DOWN }

    record TopologyChange(TopologyChangeType change, InetSocketAddress address) implements Event {
        @Override
        public String type() {
            return "TOPOLOGY_CHANGE";
        }

        @Override
        public void writeBody(ByteBuf out) {
            Wire.writeString(out, change.name());
            Wire.writeInet(out, address);
        }
    }

    record StatusChange(StatusChangeType status, InetSocketAddress address) implements Event {
        @Override
        public String type() {
            return "STATUS_CHANGE";
        }

        @Override
        public void writeBody(ByteBuf out) {
            Wire.writeString(out, status.name());
            Wire.writeInet(out, address);
        }
    }
}

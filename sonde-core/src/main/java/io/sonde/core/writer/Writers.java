package io.sonde.core.writer;

import io.sonde.core.config.ConfigKey;
import io.sonde.core.config.Quantities;
import io.sonde.core.config.SondeConfig;
import java.nio.file.Path;

/** Creates the writer a configuration names ({@code writer} = discard | file | text | tcp). */
public final class Writers {
    private Writers() {}

    public static Writer create(SondeConfig c) {
        switch (c.get(ConfigKey.WRITER)) {
            case "discard":
                return new DiscardWriter();
            case "file":
                return new FileWriter(Path.of(c.get(ConfigKey.FILE_DIR)), c.getLong(ConfigKey.FILE_SEGMENT_BYTES),
                        c.get(ConfigKey.FILE_MODE), Quantities.bytes(c.get(ConfigKey.FILE_MAXSIZE)),
                        Quantities.millis(c.get(ConfigKey.FILE_MAXAGE)));
            case "text":
                return new TextWriter(c.get(ConfigKey.TEXT_OUT));
            case "tcp":
                return new TcpWriter(c.get(ConfigKey.TCP_HOST), c.getInt(ConfigKey.TCP_PORT),
                        c.getInt(ConfigKey.TCP_CONNECT_TIMEOUT_MS));
            default:
                throw new IllegalArgumentException("unknown writer " + c.get(ConfigKey.WRITER));
        }
    }
}

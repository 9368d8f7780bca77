package io.sonde.core.config;

/**
 * A configuration error: an unknown key or a bad value. The message names the key, the value and
 * where it came from (file and line, system property, environment variable or API).
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }
}

package io.sonde.core.live.mib;

/** Checks of object and attribute names, and path building. */
final class Names {
    private Names() {}

    static String child(String parentPath, String name) {
        return parentPath.isEmpty() ? name : parentPath + "/" + name;
    }

    /** Throws a clear error unless {@code name} is a valid segment. */
    static String check(String what, String name) {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException(what + " name: empty");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            // printable ASCII (the usual name) is neither whitespace nor control: skip those lookups
            if (c > ' ' && c < 0x7f && c != '/' && c != '*' && c != '?' && c != '#') continue;
            if (c == '/' || c == '*' || c == '?' || c == '#' || Character.isWhitespace(c) || Character.isISOControl(c)) {
                throw new IllegalArgumentException(what + " name '" + name + "': character '" + c + "' at " + i
                        + " is not allowed (no / * ? # or whitespace)");
            }
        }
        return name;
    }

    static String checkType(String type) {
        if (type == null || type.isBlank()) throw new IllegalArgumentException("object type: empty");
        return type;
    }
}

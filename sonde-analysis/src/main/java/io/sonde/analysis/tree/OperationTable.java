package io.sonde.analysis.tree;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** All operations met so far, by name; the same name in several agents is one operation. */
public final class OperationTable {
    private final Map<String, Operation> byName = new HashMap<>();
    private final List<Operation> all = new ArrayList<>();

    /** The operation of that name, created on first use. */
    public Operation intern(String name, String signature) {
        Operation op = byName.get(name);
        if (op == null) {
            op = new Operation(all.size(), name, signature == null ? "" : signature);
            byName.put(name, op);
            all.add(op);
        }
        return op;
    }

    /** The operation of that name, or null. */
    public Operation find(String name) {
        return byName.get(name);
    }

    /** Every operation, in index order. */
    public List<Operation> all() {
        return Collections.unmodifiableList(all);
    }

    public int size() {
        return all.size();
    }
}

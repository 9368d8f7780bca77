package io.sonde.bench.real.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A JSON workload on Jackson databind, a library of many small methods (parser, generator,
 * serializers) like H2: orders written to JSON and read back into objects, read as trees and
 * walked, lists of orders both ways, and documents that must be refused. The mix and the data come
 * from a fixed seed; every document written, every total read from a tree and every refusal's
 * location go into the digest. An order that does not come back as it was written, or a broken
 * document that is accepted, is a failure.
 */
final class JsonWorkload implements Workload {

    private static final long SEED = 0x5EED_0019L;
    private static final TypeReference<List<Order>> ORDERS = new TypeReference<>() {};

    /** An order as the workload writes it (public fields: read and written by Jackson's reflection). */
    public static final class Order {
        public long id;
        public String customer;
        public boolean express;
        public List<Line> lines = new ArrayList<>();
        public Map<String, String> tags = new LinkedHashMap<>();
    }

    /** One line of an order. */
    public static final class Line {
        public String sku;
        public int quantity;
        public long cents;
    }

    private ObjectMapper mapper;

    @Override
    public void prepare() throws JsonProcessingException {
        mapper = new ObjectMapper();
        // the serializers and deserializers of the order types are made (and their classes loaded) here
        Order first = order(new SplittableRandom(SEED), 0);
        mapper.readValue(mapper.writeValueAsString(first), Order.class);
        mapper.readTree(mapper.writeValueAsString(List.of(first)));
    }

    @Override
    public Outcome run(long ops, Slices slices) throws JsonProcessingException {
        SplittableRandom random = new SplittableRandom(SEED);
        List<String> failures = new ArrayList<>();
        long digest = 17;
        for (long op = 0; op < ops; op++) {
            slices.starting(op);
            int kind = random.nextInt(100);
            if (kind < 55) {
                // an order there and back: the object written again must be the same document
                String json = mapper.writeValueAsString(order(random, op));
                String again = mapper.writeValueAsString(mapper.readValue(json, Order.class));
                if (!again.equals(json)) failures.add("operation " + op + ": the order read back differs: " + again);
                digest = Workload.mix(digest, json);
            } else if (kind < 80) {
                // a tree walked: the order's total in cents
                JsonNode tree = mapper.readTree(mapper.writeValueAsString(order(random, op)));
                long total = 0;
                for (JsonNode line : tree.get("lines")) total += line.get("quantity").asLong() * line.get("cents").asLong();
                digest = Workload.mix(Workload.mix(digest, tree.get("customer").asText()), total);
            } else if (kind < 95) {
                // a list of orders both ways
                List<Order> list = new ArrayList<>();
                int n = 2 + random.nextInt(8);
                for (int i = 0; i < n; i++) list.add(order(random, op * 10 + i));
                String json = mapper.writeValueAsString(list);
                List<Order> back = mapper.readValue(json, ORDERS);
                if (back.size() != n || !mapper.writeValueAsString(back).equals(json)) {
                    failures.add("operation " + op + ": the list of " + n + " orders read back differs");
                }
                digest = Workload.mix(digest, json.length());
            } else {
                digest = refused(digest, random, op, failures);
            }
        }
        return new Outcome(digest, ops, failures);
    }

    /** A document that must be refused: cut short, a value of the wrong type, or not JSON at all. */
    private long refused(long digest, SplittableRandom random, long op, List<String> failures) throws JsonProcessingException {
        String good = mapper.writeValueAsString(order(random, op));
        String bad = switch ((int) (op % 3)) {
            case 0 -> good.substring(0, good.length() / 2);
            case 1 -> good.replace("\"express\":", "\"express\":{\"no\":").replaceFirst("(true|false)", "$1}");
            default -> "order " + op;
        };
        try {
            mapper.readValue(bad, Order.class);
            failures.add("operation " + op + ": a broken document was accepted: " + bad);
            return digest;
        } catch (JsonProcessingException expected) {
            return Workload.mix(digest, expected.getLocation() == null ? -1 : expected.getLocation().getCharOffset());
        }
    }

    private static Order order(SplittableRandom random, long id) {
        Order o = new Order();
        o.id = id;
        o.customer = "customer-" + random.nextInt(500);
        o.express = random.nextBoolean();
        int lines = 1 + random.nextInt(6);
        for (int i = 0; i < lines; i++) {
            Line l = new Line();
            l.sku = "sku-" + random.nextInt(10_000);
            l.quantity = 1 + random.nextInt(9);
            l.cents = random.nextInt(100_000);
            o.lines.add(l);
        }
        if (random.nextInt(3) == 0) o.tags.put("channel", random.nextBoolean() ? "web" : "store");
        if (random.nextInt(4) == 0) o.tags.put("coupon", "c" + random.nextInt(100));
        return o;
    }

    @Override
    public void close() {
        mapper = null;
    }
}

package io.sonde.core.live.mib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sonde.api.live.Attribute;
import io.sonde.api.live.LongSensor;
import io.sonde.api.live.MonitoredObject;
import io.sonde.api.live.ValueType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class MibTreeTest {
    final MibTree tree = new MibTree(new ManualClock());

    @Test
    void objectsHavePathsTypesIdsAndChildren() {
        ObjectNode orders = tree.object("shop/orders", "Orders");
        MonitoredObject o = orders.createChild("4711", "Order");
        assertThat(o.path()).isEqualTo("shop/orders/4711");
        assertThat(o.type()).isEqualTo("Order");
        assertThat(o.parent()).isSameAs(orders);
        assertThat(tree.find("shop")).extracting(ObjectNode::type).isEqualTo("folder");
        assertThat(tree.find("shop/orders/4711")).isSameAs(o);
        assertThat(orders.children()).containsExactly(o);
        assertThat(orders.child("4711")).containsSame(o);
        assertThat(tree.root().id()).isZero();
        assertThat(Set.of(tree.find("shop").id(), orders.id(), o.id())).hasSize(3).doesNotContain(0);
        assertThat(tree.object("shop/orders", "Other")).isSameAs(orders); // get-or-create keeps the type
        assertThat(orders.type()).isEqualTo("Orders");
    }

    @Test
    void attributesCarryTypeUnitDescriptionAndId() {
        ObjectNode mem = tree.object("app/cache", "Cache");
        LongSensor size = mem.longSensor("size", "entries", "entries in the cache");
        Attribute ratio = mem.doubleAttribute("hitRatio", "ratio", "hits per lookup", () -> 0.75);
        assertThat(size.path()).isEqualTo("app/cache/size");
        assertThat(size.type()).isEqualTo(ValueType.LONG);
        assertThat(size.unit()).isEqualTo("entries");
        assertThat(size.description()).isEqualTo("entries in the cache");
        assertThat(size.isSensor()).isTrue();
        assertThat(ratio.isSensor()).isFalse();
        assertThat(size.id()).isNotEqualTo(ratio.id()).isNotEqualTo(mem.id());
        assertThat(tree.findAttribute("app/cache/hitRatio")).isSameAs(ratio);
        assertThat(mem.attributes()).containsExactly(size, ratio);
        size.set(42);
        assertThat(size.read().value()).isEqualTo(42L);
        assertThat(ratio.read().value()).isEqualTo(0.75);
        assertThat(ratio.read().unit()).isEqualTo("ratio");
    }

    @Test
    void patternsFindObjectsAndAttributes() {
        for (String id : List.of("1", "2", "3")) tree.object("shop/orders/" + id, "Order").longSensor("items", "", "");
        tree.object("jvm/gc", "Gc").longSensor("count", "", "");
        assertThat(tree.objects(PathPattern.parse("shop/orders/*"))).extracting(ObjectNode::path)
                .containsExactly("shop/orders/1", "shop/orders/2", "shop/orders/3");
        assertThat(tree.attributes(PathPattern.parse("shop/**"))).extracting(AttributeNode::path)
                .containsExactly("shop/orders/1/items", "shop/orders/2/items", "shop/orders/3/items");
        assertThat(tree.attributes(PathPattern.parse("jvm/**"))).extracting(AttributeNode::path)
                .containsExactly("jvm/gc/count");
    }

    @Test
    void namesAreCheckedAndUniqueAmongChildrenAndAttributes() {
        ObjectNode o = tree.object("a", "A");
        o.longSensor("x", "", "");
        assertThatThrownBy(() -> o.createChild("x", "B")).hasMessageContaining("'a/x' exists already (as an attribute)");
        o.createChild("y", "B");
        assertThatThrownBy(() -> o.longSensor("y", "", "")).hasMessageContaining("'a/y' exists already (as an object)");
        assertThatThrownBy(() -> o.createChild("y", "B")).hasMessageContaining("exists already");
        assertThatThrownBy(() -> o.createChild("b/c", "B")).hasMessageContaining("character '/'");
        assertThatThrownBy(() -> o.createChild("", "B")).hasMessageContaining("empty");
        assertThatThrownBy(() -> o.createChild("q*", "B")).hasMessageContaining("character '*'");
        assertThatThrownBy(() -> o.createChild("z", " ")).hasMessageContaining("object type: empty");
        assertThatThrownBy(() -> tree.root().delete()).hasMessageContaining("root");
    }

    @Test
    void deleteRemovesTheSubtreeAndItsAttributes() {
        ObjectNode order = tree.object("shop/orders/1", "Order");
        LongSensor items = order.longSensor("items", "", "");
        MonitoredObject line = order.createChild("line1", "Line");
        order.delete();
        assertThat(order.isDeleted()).isTrue();
        assertThat(line.isDeleted()).isTrue();
        assertThat(tree.find("shop/orders/1")).isNull();
        // a deleted object keeps its path (built lazily, also after the delete) and its members
        assertThat(order.path()).isEqualTo("shop/orders/1");
        assertThat(items.path()).isEqualTo("shop/orders/1/items");
        assertThat(order.children()).containsExactly(line);
        assertThat(order.attributes()).containsExactly(items);
        assertThat(tree.find("shop/orders/1/line1")).isNull();
        assertThat(tree.findAttribute("shop/orders/1/items")).isNull();
        assertThat(tree.find("shop/orders").children()).isEmpty();
        items.set(5); // a stale sensor stays usable
        assertThat(items.get()).isEqualTo(5);
        assertThatThrownBy(() -> order.createChild("x", "X")).hasMessageContaining("was deleted");
        order.delete(); // twice: no-op
        ObjectNode again = tree.object("shop/orders/1", "Order");
        assertThat(again).isNotSameAs(order);
        assertThat(again.id()).isNotEqualTo(order.id()); // ids are never reused
    }

    /**
     * Eight threads create, fill and delete objects under the same few parents at random; after
     * that, the index and the containment agree exactly and all ids are distinct.
     */
    @Test
    void concurrentCreateAndDeleteKeepTheTreeConsistent() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            long seed = 42 + t;
            done.add(pool.submit(() -> {
                Random r = new Random(seed);
                start.await();
                int ops = 0;
                for (int i = 0; i < 3000; i++) {
                    String path = "shop/orders/" + r.nextInt(16);
                    try {
                        switch (r.nextInt(5)) {
                            case 0:
                                tree.object(path, "Order");
                                break;
                            case 1:
                                ObjectNode o = tree.find(path);
                                if (o != null) o.delete();
                                break;
                            case 2:
                                tree.object(path, "Order").createChild("line" + r.nextInt(4), "Line");
                                break;
                            case 3: // a pattern walk while others change the tree
                                for (ObjectNode line : tree.objects(PathPattern.parse("shop/orders/*/line?"))) {
                                    if (!line.path().startsWith("shop/orders/")) throw new AssertionError(line.path());
                                }
                                break;
                            default:
                                tree.object(path, "Order").longSensor("a" + r.nextInt(4), "", "").set(i);
                        }
                        ops++;
                    } catch (IllegalArgumentException | IllegalStateException raceLost) {
                        // exists already / parent deleted meanwhile: both are the documented answers
                    }
                }
                return ops;
            }));
        }
        start.countDown();
        int ops = 0;
        for (Future<Integer> f : done) ops += f.get();
        pool.shutdown();
        assertThat(ops).isGreaterThan(threads * 1000);
        assertConsistent();
    }

    @Test
    void manyMembersAreFoundByNameAndListedInCreationOrderAcrossTheNameIndex() {
        ObjectNode orders = tree.object("shop/orders", "Orders");
        List<MonitoredObject> made = new ArrayList<>();
        for (int i = 0; i < 3 * ObjectNode.INDEX_FROM; i++) made.add(orders.createChild("o" + i, "Order"));
        LongSensor count = orders.longSensor("count", "", "");
        assertThat(orders.children()).containsExactlyElementsOf(made);
        for (int i = 0; i < made.size(); i += 2) made.get(i).delete();
        List<MonitoredObject> left = new ArrayList<>();
        for (int i = 1; i < made.size(); i += 2) left.add(made.get(i));
        assertThat(orders.children()).containsExactlyElementsOf(left);
        assertThat(orders.attributes()).containsExactly(count);
        assertThat(tree.find("shop/orders/o0")).isNull();
        assertThat(tree.find("shop/orders/o1")).isSameAs(left.get(0));
        assertThat(tree.findAttribute("shop/orders/count")).isSameAs(count);
        assertThat(tree.find("shop/orders/count")).as("an attribute is not an object").isNull();
        assertThat(tree.findAttribute("shop/orders/o1")).as("an object is not an attribute").isNull();
        MonitoredObject again = orders.createChild("o0", "Order");
        assertThat(tree.find("shop/orders/o0")).isSameAs(again);
        assertThat(orders.children()).last().isSameAs(again);
        assertThatThrownBy(() -> orders.createChild("o1", "Order")).hasMessageContaining("exists already (as an object)");
        assertThatThrownBy(() -> orders.createChild("count", "Order")).hasMessageContaining("exists already (as an attribute)");
    }

    @Test
    void lookupsOfMalformedOrMissingPathsFindNothing() {
        tree.object("a/b", "B").longSensor("x", "", "");
        assertThat(tree.find("a//b")).isNull();
        assertThat(tree.find("a/b/")).isNull();
        assertThat(tree.find("a/b/x/y")).isNull();
        assertThat(tree.findAttribute("a/b/x/y")).isNull();
        assertThat(tree.find("")).isSameAs(tree.root());
        assertThat(tree.find(null)).isNull();
        assertThat(tree.objects(PathPattern.parse("a/zz/*"))).isEmpty();
        assertThat(tree.objects(PathPattern.parse("a/b/x/*"))).as("under an attribute").isEmpty();
    }

    private void assertConsistent() {
        Set<Integer> ids = new HashSet<>();
        List<ObjectNode> reachable = new ArrayList<>();
        collect(tree.root(), reachable);
        for (ObjectNode o : reachable) {
            assertThat(ids.add(o.id())).as("id of %s unique", o).isTrue();
            assertThat(o.isDeleted()).as("%s reachable but deleted", o).isFalse();
            assertThat(tree.find(o.path())).as("index of %s", o.path()).isSameAs(o);
            for (Attribute a : o.attributes()) {
                assertThat(ids.add(a.id())).isTrue();
                assertThat(tree.findAttribute(a.path())).isSameAs(a);
                assertThat(a.path()).isEqualTo(o.path() + "/" + a.name());
            }
        }
        List<ObjectNode> indexed = tree.objects(PathPattern.parse("**"));
        assertThat(indexed).containsExactlyInAnyOrderElementsOf(reachable);
        for (AttributeNode a : tree.attributes(PathPattern.parse("**"))) {
            assertThat(reachable).contains((ObjectNode) a.owner());
        }
    }

    private static void collect(ObjectNode o, List<ObjectNode> out) {
        out.add(o);
        for (MonitoredObject c : o.children()) {
            assertThat(c.parent()).isSameAs(o);
            assertThat(c.path()).isEqualTo(o.path().isEmpty() ? c.name() : o.path() + "/" + c.name());
            collect((ObjectNode) c, out);
        }
    }
}

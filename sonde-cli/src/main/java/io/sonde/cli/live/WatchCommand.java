package io.sonde.cli.live;

import io.sonde.cli.UsageError;
import io.sonde.cli.UserError;
import io.sonde.format.observe.DeliveryQos;
import io.sonde.format.observe.ObserveProtocol;
import io.sonde.format.observe.ObservedEvent;
import io.sonde.observer.Observer;
import io.sonde.observer.ObserverClient;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code sonde watch HOST:PORT PATTERN}: subscribes to the events of the sensors matching PATTERN in
 * a running process, with the QoS asked for, and shows them: on a terminal a view redrawn in place
 * (one row per attribute with its latest value, rate and last change); else one line per event, or
 * with {@code --json} one JSON object per event. Ends after {@code --count} events, after
 * {@code --seconds}, when the process closes the connection, or on Ctrl-C.
 */
@Command(name = "watch", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Follows the live events of the sensors matching PATTERN in a running process (observe endpoint).",
            "Value changes, objects added and removed: on a terminal a view refreshed in place, otherwise one line per event."})
public final class WatchCommand implements Callable<Integer> {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

    @Mixin
    EndpointPattern target;

    @Mixin
    ObserveOptions observe;

    @Option(names = "--batch", paramLabel = "N", description = "deliver N events at a time (a started batch waits at most --flush)")
    Integer batch;

    @Option(names = "--flush", paramLabel = "DURATION", description = "with --batch: the longest a batch waits, e.g. 50ms (default 1s)")
    String flush;

    @Option(names = "--period", paramLabel = "DURATION", description = "deliver everything of each period at its end, e.g. 2s")
    String period;

    @Option(names = "--latest", description = "with --period: only the latest value per attribute of each period")
    boolean latest;

    @Option(names = "--urgent", description = "urgent priority: this subscription's deliveries overtake regular ones")
    boolean urgent;

    @Option(names = "--json", description = "one JSON object per event (path, event, value, time_ns, ...) instead of the view")
    boolean json;

    @Option(names = "--count", paramLabel = "N", description = "stop after N events")
    Long count;

    @Option(names = "--seconds", paramLabel = "N", description = "stop after N seconds")
    Long seconds;

    /** The QoS the options ask for; option combinations that do not go together are usage errors. */
    DeliveryQos qos() {
        if (batch != null && period != null) throw new UsageError("--batch and --period do not go together: choose one");
        if (flush != null && batch == null) throw new UsageError("--flush needs --batch");
        if (latest && period == null) throw new UsageError("--latest needs --period");
        DeliveryQos q;
        if (batch != null) {
            if (batch < 1) throw new UsageError("--batch must be at least 1, got " + batch);
            q = DeliveryQos.batch(batch, flush == null ? Duration.ofSeconds(1) : Durations.parse("--flush", flush));
        } else if (period != null) {
            Duration p = Durations.parse("--period", period);
            q = latest ? DeliveryQos.periodicLatest(p) : DeliveryQos.periodic(p);
        } else {
            q = DeliveryQos.immediate();
        }
        return urgent ? q.asUrgent() : q;
    }

    static String describe(DeliveryQos q) {
        String s = switch (q.mode()) {
            case ObserveProtocol.QOS_BATCH -> "batches of " + q.batchSize() + ", flushed after " + millis(q.intervalNanos());
            case ObserveProtocol.QOS_PERIODIC -> "every " + millis(q.intervalNanos());
            case ObserveProtocol.QOS_PERIODIC_LATEST -> "latest values every " + millis(q.intervalNanos());
            default -> "immediate";
        };
        return s + (q.isUrgent() ? ", urgent" : "");
    }

    private static String millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos) + " ms";
    }

    @Override
    public Integer call() throws InterruptedException {
        ObserveAddress a = target.address();
        String pattern = target.pattern;
        DeliveryQos qos = qos();
        if (count != null && seconds != null) throw new UsageError("--count and --seconds do not go together: choose one");
        if (count != null && count < 1) throw new UsageError("--count must be at least 1, got " + count);
        if (seconds != null && seconds < 1) throw new UsageError("--seconds must be at least 1, got " + seconds);
        PrintStream out = System.out;
        String term = System.getenv("TERM");
        boolean terminal = !json && System.console() != null && term != null && !term.equals("dumb");
        Session session = new Session(out, terminal ? new WatchView(System.nanoTime()) : null);
        long deadline = seconds == null ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String header = "sonde watch " + a.endpoint() + " '" + pattern + "'  (" + describe(qos) + ")";
        try (ObserverClient c = observe.connect(a, session)) {
            try {
                c.subscribe(pattern, ObserverClient.ALL_KINDS, qos);
            } catch (IOException e) {
                throw ObserveOptions.failure(a, e);
            }
            if (!terminal && !json) System.err.println(header.substring("sonde ".length()));
            int[] size = terminal ? terminalSize() : new int[] {40, 120};
            int rows = size[0] - 4;
            int width = size[1];
            while (true) {
                long left = Math.max(0, deadline - System.nanoTime());
                boolean ended = session.ended.await(Math.min(terminal ? 250 : 1000, TimeUnit.NANOSECONDS.toMillis(left) + 1),
                        TimeUnit.MILLISECONDS);
                if (session.view != null) {
                    out.print(session.view.render(header + "  " + session.tally() + "  Ctrl-C ends", System.nanoTime(), rows, width));
                    out.flush();
                }
                if (ended || System.nanoTime() - deadline >= 0) break;
            }
            session.closing = true;
        }
        if (session.peerClosed && !session.countReached()) {
            Throwable why = session.cause;
            String m = a.endpoint() + " closed the connection after " + session.tally() + (why == null ? "" : ": " + why.getMessage());
            if (count != null || seconds != null) throw new UserError(m);
            System.err.println("sonde watch: " + m);
        }
        return 0;
    }

    /** Rows and columns of the terminal: {@code stty size} on it, else LINES and COLUMNS, else 40 x 120. */
    private static int[] terminalSize() {
        try {
            Process p = new ProcessBuilder("stty", "size").redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/tty")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String[] rc = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim().split(" ");
            if (p.waitFor(2, TimeUnit.SECONDS) && rc.length == 2) {
                return new int[] {Math.max(10, Integer.parseInt(rc[0])), Math.max(40, Integer.parseInt(rc[1]))};
            }
        } catch (IOException | RuntimeException e) {
            // no stty or no terminal: the environment's or the default size
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new int[] {envInt("LINES", 40), envInt("COLUMNS", 120)};
    }

    private static int envInt(String name, int otherwise) {
        try {
            return Math.max(10, Integer.parseInt(System.getenv(name)));
        } catch (RuntimeException e) {
            return otherwise;
        }
    }

    /** The subscription's receiving end: counts, stops at {@code --count}, prints or feeds the view. */
    private final class Session implements Observer {
        final PrintStream out;
        final WatchView view;
        final CountDownLatch ended = new CountDownLatch(1);
        volatile boolean closing;
        volatile boolean peerClosed;
        /** Why the peer closed, if it said (e.g. the relayed agent left); null otherwise. */
        volatile Throwable cause;
        private long events;
        private long deliveries;
        private long lost;

        Session(PrintStream out, WatchView view) {
            this.out = out;
            this.view = view;
        }

        synchronized boolean countReached() {
            return count != null && events >= count;
        }

        synchronized String tally() {
            return events + " event(s) in " + deliveries + " deliveries, " + lost + " lost";
        }

        @Override
        public synchronized void onEvents(int subscription, List<ObservedEvent> delivered) {
            if (countReached()) return;
            deliveries++;
            long now = System.nanoTime();
            for (ObservedEvent e : delivered) {
                events++;
                if (view != null) {
                    view.add(e, now);
                } else {
                    out.println(json ? json(e, subscription, deliveries) : line(e));
                }
                if (countReached()) {
                    ended.countDown();
                    break;
                }
            }
            out.flush();
        }

        @Override
        public synchronized void onOverflow(long lostNow, long lostTotal) {
            lost = lostTotal;
            if (view != null) return; // the header shows the total
            if (json) {
                out.println("{\"path\": null, \"event\": \"OVERFLOW\", \"value\": " + lostNow + ", \"lost_total\": " + lostTotal
                        + ", \"time_ns\": " + epochNanos(Instant.now()) + "}");
            } else {
                out.println("-- overflow: " + lostNow + " event(s) lost (" + lostTotal + " in total): the endpoint's queue for this"
                        + " connection was full");
            }
            out.flush();
        }

        @Override
        public void onClosed(Throwable cause) {
            this.cause = cause;
            if (!closing) peerClosed = true;
            ended.countDown();
        }
    }

    private static long epochNanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /**
     * One event as a JSON object: {@code path} (the source), {@code event} (the kind), {@code value}
     * (the new value; null for object events), {@code time_ns} (the sensor's time, epoch ns of the
     * observed process's clock), {@code id} (the source's id), {@code subscription}, {@code delivery}
     * (events of one delivery share it) and, for CHILD_ADDED / CHILD_REMOVED, {@code child} and
     * {@code child_id}; for NOTIFICATION, {@code notification} ({@code type}, {@code message},
     * {@code sequence}, {@code user_data}).
     */
    static String json(ObservedEvent e, int subscription, long delivery) {
        StringBuilder b = new StringBuilder("{\"path\": ").append(JsonText.quote(e.path()))
                .append(", \"event\": \"").append(e.kind().name()).append('"')
                .append(", \"value\": ").append(JsonText.value(e.value()))
                .append(", \"time_ns\": ").append(e.timeNanos())
                .append(", \"id\": ").append(e.sourceId())
                .append(", \"subscription\": ").append(subscription)
                .append(", \"delivery\": ").append(delivery);
        if (e.childPath() != null && (e.kind() == ObservedEvent.Kind.CHILD_ADDED || e.kind() == ObservedEvent.Kind.CHILD_REMOVED)) {
            b.append(", \"child\": ").append(JsonText.quote(e.childPath())).append(", \"child_id\": ").append(e.childId());
        }
        if (e.notification() != null) {
            b.append(", \"notification\": {\"type\": ").append(JsonText.quote(e.notification().type()))
                    .append(", \"message\": ").append(JsonText.quote(e.notification().message()))
                    .append(", \"sequence\": ").append(e.notification().sequence())
                    .append(", \"user_data\": ").append(JsonText.quote(e.notification().userData())).append('}');
        }
        return b.append('}').toString();
    }

    /** A notification as one line of text: its type, then its message when it has one. */
    static String notificationText(ObservedEvent e) {
        var n = e.notification();
        if (n == null) return "notification";
        return n.message() == null || n.message().isEmpty() ? n.type() : n.type() + ": " + n.message();
    }

    /** One event as a line: sensor time (local clock), path, then {@code = value}, {@code + child}, {@code - child} or {@code deleted}. */
    static String line(ObservedEvent e) {
        String time = CLOCK.format(Instant.ofEpochSecond(0, e.timeNanos()));
        String what = switch (e.kind()) {
            case VALUE_CHANGED -> "= " + WatchView.text(e.value());
            case CHILD_ADDED -> "+ " + e.childPath();
            case CHILD_REMOVED -> "- " + e.childPath();
            case OBJECT_DELETED -> "deleted";
            case NOTIFICATION -> "! " + notificationText(e);
        };
        return time + "  " + e.path() + "  " + what;
    }
}

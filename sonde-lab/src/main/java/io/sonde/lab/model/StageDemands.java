package io.sonde.lab.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The per-request demands of the lab server's stages, read from a service-demand report
 * ({@code sonde analyze --demands-json}, schema {@code sonde-demands/1}) of a trace of the server
 * under the agent. A stage is found by its method name: the operation whose name ends in
 * {@code .receive}, {@code .dispatch}, {@code .servant}, {@code .reply}, and where the strategy
 * has them {@code .acquireOrbLock} (threaded: waiting for the server-wide lock),
 * {@code .startDispatcher} (thread-per-request: creating and starting a thread) or
 * {@code .enqueue} (thread-pool: the hand-over). Means over every thread group, weighted by count.
 * Times in milliseconds; a stage the trace does not show is 0 (and {@link #count} 0).
 *
 * @param receiveCpuMs CPU of reading a request
 * @param dispatchCpuMs CPU of dispatching it
 * @param servantCpuMs CPU of the servant
 * @param servantWallMs wall time of the servant (a delay servant's sleep)
 * @param replyCpuMs CPU of writing the reply
 * @param lockCpuMs CPU of acquiring the server-wide lock (threaded)
 * @param lockWallMs wall time waiting for it (contention)
 * @param threadStartCpuMs CPU of creating and starting a dispatcher thread (thread-per-request)
 * @param enqueueCpuMs CPU of handing the request to the pool (thread-pool)
 * @param requests executions of the servant stage (requests traced)
 */
public record StageDemands(double receiveCpuMs, double dispatchCpuMs, double servantCpuMs, double servantWallMs,
        double replyCpuMs, double lockCpuMs, double lockWallMs, double threadStartCpuMs, double enqueueCpuMs, long requests) {

    /** Stage method names of io.sonde.lab.server.LabServer, the include list for the agent. */
    public static final List<String> STAGES =
            List.of("receive", "dispatch", "servant", "reply", "acquireOrbLock", "startDispatcher", "enqueue");

    /** The agent's include option for the lab server's stages. */
    public static String agentInclude() {
        StringBuilder sb = new StringBuilder();
        for (String s : STAGES) {
            sb.append(sb.length() == 0 ? "" : ";").append("io.sonde.lab.server.LabServer.").append(s);
        }
        return sb.toString();
    }

    /**
     * Reads a {@code sonde-demands/1} file.
     *
     * @throws IOException naming the file when it cannot be read, is not such a report, has no CPU
     *     times (the trace was made without {@code cpu.time=on}) or shows no servant stage
     */
    public static StageDemands read(Path file) throws IOException {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException(file + ": not a JSON demand report: " + e.getMessage(), e);
        }
        if (root == null || !"sonde-demands/1".equals(root.path("schema").asText())) {
            throw new IOException(file + ": not a service-demand report (expected schema sonde-demands/1 from 'sonde analyze --demands-json')");
        }
        Stage[] stages = new Stage[STAGES.size()];
        for (int i = 0; i < stages.length; i++) {
            stages[i] = new Stage();
        }
        for (JsonNode group : root.path("groups")) {
            for (JsonNode op : group.path("operations")) {
                String name = op.path("operation").asText();
                for (int i = 0; i < stages.length; i++) {
                    if (name.endsWith("." + STAGES.get(i))) {
                        stages[i].add(file, name, op);
                    }
                }
            }
        }
        Stage servant = stages[2];
        if (servant.count == 0) {
            throw new IOException(file + ": no operation named *.servant: was the server traced with include="
                    + agentInclude() + "?");
        }
        return new StageDemands(stages[0].cpu(), stages[1].cpu(), servant.cpu(), servant.wall(), stages[3].cpu(),
                stages[4].cpu(), stages[4].wall(), stages[5].cpu(), stages[6].cpu(), servant.count);
    }

    /** Count-weighted sums of one stage's means. */
    private static final class Stage {
        long count;
        double cpuSum;
        double wallSum;

        void add(Path file, String name, JsonNode op) throws IOException {
            long n = op.path("count").asLong();
            JsonNode cpu = op.path("meanCpuMillis");
            if (cpu.isNull() || cpu.isMissingNode()) {
                throw new IOException(file + ": operation " + name + " has no CPU times: trace the server with cpu.time=on");
            }
            count += n;
            cpuSum += n * cpu.asDouble();
            wallSum += n * op.path("meanWallMillis").asDouble();
        }

        double cpu() {
            return count == 0 ? 0 : cpuSum / count;
        }

        double wall() {
            return count == 0 ? 0 : wallSum / count;
        }
    }
}

/* kafka-mock: a real Kafka wire-protocol broker for tests, without Docker, using librdkafka's mock
 * cluster (Debian: librdkafka-dev). Build: tools/kafka-mock/build.sh.
 *
 * Usage: kafka-mock [broker_count=1] [--port N] [--until-signal]
 *   stdout: exactly one line "BOOTSTRAP=host:port[,host:port...]", then one reply line ("OK" or
 *           "ERR <reason>") per stdin command.
 *   stdin:  optional commands, one per line:
 *             "create <topic> <partitions>"      creates a topic;
 *             "leader <topic> <partition> <id>"  makes broker <id> the partition's leader (-1: none);
 *             "errors <api key> <code> <count>"  fails the next <count> requests of that API with
 *                                                <code> (a Kafka error code, e.g. 6 NOT_LEADER_OR_FOLLOWER);
 *             "down <id>" / "up <id>"            disconnects broker <id> and refuses connections /
 *                                                accepts them again (-1: every broker; no leader change).
 *           The fault suite's cluster scenario (test/faults/) drives them.
 *   Runs until stdin reaches EOF or SIGTERM/SIGINT, then destroys the cluster and exits 0.
 *   --until-signal: stdin's EOF does not stop it (a launcher or a shell with no stdin); only
 *                   SIGTERM/SIGINT do (`npm run start:distributed`).
 *   --port N:       broker i listens on 127.0.0.1:N+i instead of a random port, so that clients
 *                   started later (or again) find it at the same address. Exits 1 when it is taken.
 *
 * Fixed ports: librdkafka 2.0.x's mock cluster binds each broker to 127.0.0.1:0 and has no setting
 * for the port, so this program defines bind(): librdkafka's call resolves to it (the executable's
 * symbols come first), and it gives the first broker_count loopback listeners with port 0 the
 * requested ports, then calls libc's bind. Everything else is passed through unchanged.
 *
 * Topics: any Metadata request naming an unknown topic with AllowAutoTopicCreation (kafkajs' default)
 * auto-creates it with the mock's hard-coded default of 4 partitions (replication min(3, brokers));
 * librdkafka 2.0.x has no API to change that default. The mock does NOT implement the CreateTopics
 * admin API (kafkajs admin.createTopics fails), hence the "create" stdin command. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

static int fixed_port = 0;      /* --port: the first broker's port; 0 = random ports */
static int fixed_remaining = 0; /* listeners still to place on fixed ports */
static int fixed_next = 0;

/* librdkafka asserts (aborts) when a mock broker cannot bind, so a taken port is found first. */
static int port_free(int port) {
    struct sockaddr_in sin;
    int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0), ok;
    if (fd < 0) return 0;
    memset(&sin, 0, sizeof(sin));
    sin.sin_family = AF_INET;
    sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sin.sin_port = htons((unsigned short)port);
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    ok = ((int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "bind"))(fd, (struct sockaddr *)&sin, sizeof(sin)) == 0;
    close(fd);
    return ok;
}

int bind(int fd, const struct sockaddr *addr, socklen_t len) {
    static int (*real_bind)(int, const struct sockaddr *, socklen_t);
    if (!real_bind) real_bind = (int (*)(int, const struct sockaddr *, socklen_t))dlsym(RTLD_NEXT, "bind");
    if (fixed_remaining > 0 && addr && addr->sa_family == AF_INET && len >= (socklen_t)sizeof(struct sockaddr_in)) {
        struct sockaddr_in sin;
        memcpy(&sin, addr, sizeof(sin));
        if (sin.sin_port == 0 && sin.sin_addr.s_addr == htonl(INADDR_LOOPBACK)) {
            int one = 1;
            fixed_remaining--;
            sin.sin_port = htons((unsigned short)(fixed_port + fixed_next++));
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)); /* a restart within TIME_WAIT */
            return real_bind(fd, (const struct sockaddr *)&sin, sizeof(sin));
        }
    }
    return real_bind(fd, addr, len);
}

int main(int argc, char **argv) {
    int brokers = 1, until_signal = 0;
    char errstr[512], line[1024], topic[512];
    int partitions, broker_id, api_key, code, count;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--until-signal") == 0) until_signal = 1;
        else if (strcmp(argv[i], "--port") == 0 && i + 1 < argc) fixed_port = atoi(argv[++i]);
        else brokers = atoi(argv[i]);
    }
    if (brokers < 1) brokers = 1;
    if (fixed_port < 0 || fixed_port + brokers > 65536) { fprintf(stderr, "kafka-mock: invalid --port\n"); return 2; }
    if (fixed_port > 0) fixed_remaining = brokers;
    for (int i = 0; i < fixed_remaining; i++)
        if (!port_free(fixed_port + i)) {
            fprintf(stderr, "kafka-mock: 127.0.0.1:%d is already in use\n", fixed_port + i);
            return 1;
        }

    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal; /* no SA_RESTART: a signal interrupts the blocking read below */
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "log_level", "3", errstr, sizeof(errstr)); /* errors only, on stderr */
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof(errstr));
    if (!rk) { fprintf(stderr, "kafka-mock: rd_kafka_new: %s\n", errstr); return 1; }
    rd_kafka_mock_cluster_t *mcluster = rd_kafka_mock_cluster_new(rk, brokers);
    if (!mcluster) {
        fprintf(stderr, "kafka-mock: rd_kafka_mock_cluster_new failed%s\n",
                fixed_port ? " (is the port already in use?)" : "");
        return 1;
    }

    printf("BOOTSTRAP=%s\n", rd_kafka_mock_cluster_bootstraps(mcluster));
    fflush(stdout);

    for (;;) {
        if (stop_requested) break;
        if (!fgets(line, sizeof(line), stdin)) {
            if (!until_signal || stop_requested) break;
            while (!stop_requested) sleep(1); /* stdin is closed: a signal interrupts the sleep */
            break;
        }
        if (sscanf(line, "create %511s %d", topic, &partitions) == 2 && partitions > 0) {
            rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mcluster, topic, partitions, 1);
            if (err) printf("ERR %s\n", rd_kafka_err2str(err)); else printf("OK\n");
        } else if (sscanf(line, "leader %511s %d %d", topic, &partitions, &broker_id) == 3) {
            rd_kafka_resp_err_t err = rd_kafka_mock_partition_set_leader(mcluster, topic, partitions, broker_id);
            if (err) printf("ERR %s\n", rd_kafka_err2str(err)); else printf("OK\n");
        } else if (sscanf(line, "errors %d %d %d", &api_key, &code, &count) == 3 && count > 0 && count <= 1000) {
            rd_kafka_resp_err_t errs[1000];
            for (int i = 0; i < count; i++) errs[i] = (rd_kafka_resp_err_t)code;
            rd_kafka_mock_push_request_errors_array(mcluster, (int16_t)api_key, (size_t)count, errs);
            printf("OK\n");
        } else if (sscanf(line, "down %d", &broker_id) == 1) {
            rd_kafka_resp_err_t err = rd_kafka_mock_broker_set_down(mcluster, broker_id);
            if (err) printf("ERR %s\n", rd_kafka_err2str(err)); else printf("OK\n");
        } else if (sscanf(line, "up %d", &broker_id) == 1) {
            rd_kafka_resp_err_t err = rd_kafka_mock_broker_set_up(mcluster, broker_id);
            if (err) printf("ERR %s\n", rd_kafka_err2str(err)); else printf("OK\n");
        } else if (line[0] != '\n') {
            printf("ERR unknown command\n");
        }
        fflush(stdout);
    }

    rd_kafka_mock_cluster_destroy(mcluster);
    rd_kafka_destroy(rk);
    return 0;
}

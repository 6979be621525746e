/* kafka-mock: a real Kafka wire-protocol broker for tests, without Docker, using librdkafka's mock
 * cluster (Debian: librdkafka-dev). Build: tools/kafka-mock/build.sh.
 *
 * Usage: kafka-mock [broker_count=1]
 *   stdout: exactly one line "BOOTSTRAP=host:port[,host:port...]", then one reply line ("OK" or
 *           "ERR <reason>") per stdin command.
 *   stdin:  optional commands, one per line: "create <topic> <partitions>" creates a topic.
 *   Runs until stdin reaches EOF or SIGTERM/SIGINT, then destroys the cluster and exits 0.
 *
 * Topics: any Metadata request naming an unknown topic with AllowAutoTopicCreation (kafkajs' default)
 * auto-creates it with the mock's hard-coded default of 4 partitions (replication min(3, brokers));
 * librdkafka 2.0.x has no API to change that default. The mock does NOT implement the CreateTopics
 * admin API (kafkajs admin.createTopics fails), hence the "create" stdin command. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

static volatile sig_atomic_t stop_requested = 0;
static void on_signal(int sig) { (void)sig; stop_requested = 1; }

int main(int argc, char **argv) {
    int brokers = argc > 1 ? atoi(argv[1]) : 1;
    char errstr[512], line[1024], topic[512];
    int partitions;
    if (brokers < 1) brokers = 1;

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
    if (!mcluster) { fprintf(stderr, "kafka-mock: rd_kafka_mock_cluster_new failed\n"); return 1; }

    printf("BOOTSTRAP=%s\n", rd_kafka_mock_cluster_bootstraps(mcluster));
    fflush(stdout);

    while (!stop_requested && fgets(line, sizeof(line), stdin)) {
        if (sscanf(line, "create %511s %d", topic, &partitions) == 2 && partitions > 0) {
            rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(mcluster, topic, partitions, 1);
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

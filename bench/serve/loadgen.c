/* A compiled load generator for `journal serve`: CLIENTS threads, each on one keep-alive
   connection, appending one event per request (a new 3DS transaction's TransactionCreated) for
   SECONDS seconds. Prints {"clients","seconds","acknowledged","failures","eventsPerSecond",
   "p50ms","p99ms"}. Beside load.py, whose Python clients cost more CPU than the server on a
   small machine.

     cc -O2 -pthread -o .build/serve-loadgen bench/serve/loadgen.c
     .build/serve-loadgen PORT [CLIENTS] [SECONDS]                                             */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int port, seconds;
static double deadline;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

struct client {
    int index;
    long acknowledged, failures, count, capacity;
    double *latencies;
};

static int connect_to_server(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons(port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) { close(fd); return -1; }
    return fd;
}

/* Reads one answer: the status, and the body skipped by its Content-Length. */
static int read_answer(int fd, char *buffer, size_t size) {
    size_t have = 0;
    for (;;) {
        ssize_t n = recv(fd, buffer + have, size - have - 1, 0);
        if (n <= 0) return -1;
        have += n;
        buffer[have] = 0;
        char *end = strstr(buffer, "\r\n\r\n");
        if (!end) continue;
        char *length = strcasestr(buffer, "Content-Length:");
        size_t body = length ? strtoul(length + 15, NULL, 10) : 0;
        size_t total = (end + 4 - buffer) + body;
        while (have < total) {
            n = recv(fd, buffer + have, size - have - 1, 0);
            if (n <= 0) return -1;
            have += n;
        }
        return atoi(buffer + 9);
    }
}

static void *run(void *argument) {
    struct client *client = argument;
    char body[512], request[1024], answer[4096];
    int fd = connect_to_server();
    for (long n = 1; fd >= 0 && now() < deadline; n++) {
        int length = snprintf(body, sizeof body,
            "{\"id\":\"%08x-0000-4000-8000-%012lx\",\"stream\":\"3ds-c0%06x-0000-4000-8000-%012lx\","
            "\"type\":\"TransactionCreated\",\"occurredAt\":\"2026-12-03T10:40:00.000Z\","
            "\"data\":{\"directoryServerID\":\"A000000003\",\"messageVersion\":\"2.2.0\"}}\n",
            0xe0000000u + client->index, n, client->index, n);
        int size = snprintf(request, sizeof request,
            "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
            "Content-Length: %d\r\n\r\n%s", length, body);
        double started = now();
        if (send(fd, request, size, MSG_NOSIGNAL) != size) break;
        int status = read_answer(fd, answer, sizeof answer);
        if (status < 0) break;
        if (client->count == client->capacity) {
            client->capacity = client->capacity ? client->capacity * 2 : 4096;
            client->latencies = realloc(client->latencies, client->capacity * sizeof(double));
        }
        client->latencies[client->count++] = now() - started;
        if (status == 200) client->acknowledged++; else client->failures++;
    }
    if (fd >= 0) close(fd);
    return NULL;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s PORT [CLIENTS] [SECONDS]\n", argv[0]); return 2; }
    port = atoi(argv[1]);
    int clients = argc > 2 ? atoi(argv[2]) : 64;
    seconds = argc > 3 ? atoi(argv[3]) : 10;
    struct client *all = calloc(clients, sizeof *all);
    pthread_t *threads = calloc(clients, sizeof *threads);
    double started = now();
    deadline = started + seconds;
    for (int i = 0; i < clients; i++) {
        all[i].index = i;
        pthread_create(&threads[i], NULL, run, &all[i]);
    }
    long acknowledged = 0, failures = 0, count = 0;
    for (int i = 0; i < clients; i++) {
        pthread_join(threads[i], NULL);
        acknowledged += all[i].acknowledged;
        failures += all[i].failures;
        count += all[i].count;
    }
    double elapsed = now() - started;
    double *latencies = malloc((count ? count : 1) * sizeof(double));
    long k = 0;
    for (int i = 0; i < clients; i++)
        for (long j = 0; j < all[i].count; j++) latencies[k++] = all[i].latencies[j];
    qsort(latencies, count, sizeof(double), compare);
    printf("{\"clients\":%d,\"seconds\":%.2f,\"acknowledged\":%ld,\"failures\":%ld,\"eventsPerSecond\":%.0f,"
           "\"p50ms\":%.2f,\"p99ms\":%.2f}\n", clients, elapsed, acknowledged, failures, acknowledged / elapsed,
           count ? latencies[count / 2] * 1000 : 0, count ? latencies[(long)(count * 0.99)] * 1000 : 0);
    return 0;
}

/*
 * eventlog_socket.c: test support for hecscope's live tests. An
 * EventLogWriter that serves the program's eventlog on a Unix socket, one
 * client at a time, the way GHC's eventlog-socket library does: when a
 * client connects, event logging is started again with this writer, so the
 * RTS writes the header to that client first; when the client hangs up,
 * event logging stops until the next one. Events the RTS would write while
 * no client is connected are dropped. At exit the RTS ends event logging
 * itself: the client gets the end marker and the connection closes.
 *
 * GHC 9.0.2's startEventLogging writes whatever its global buffer still
 * held (a block of events posted while logging was off) before the header;
 * a client must get the header first, so those bytes are dropped.
 *
 * Start it early in main: hecscope_eventlog_socket_start(path, wait).
 */
#define _GNU_SOURCE
#include <Rts.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static pthread_mutex_t client_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t client_came = PTHREAD_COND_INITIALIZER;
static int client = -1;
static int listener = -1;
static bool header_sent; /* the client has had the header's first bytes */

/* header_start returns where the header begins in the n bytes at p, or
 * NULL if it does not. */
static const char *header_start(const char *p, size_t n)
{
    static const char magic[4] = {0x68, 0x64, 0x72, 0x62}; /* "hdrb" */
    for (size_t i = 0; i + sizeof magic <= n; i++)
        if (memcmp(p + i, magic, sizeof magic) == 0)
            return p + i;
    return NULL;
}

static bool send_events(void *events, size_t size)
{
    pthread_mutex_lock(&client_lock);
    const char *p = events;
    if (client >= 0 && !header_sent) {
        const char *h = header_start(p, size);
        if (h == NULL) {
            pthread_mutex_unlock(&client_lock);
            return true;
        }
        size -= (size_t)(h - p);
        p = h;
        header_sent = true;
    }
    while (client >= 0 && size > 0) {
        ssize_t n = send(client, p, size, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break; /* the client has gone: drop the rest */
        }
        p += n;
        size -= (size_t)n;
    }
    pthread_mutex_unlock(&client_lock);
    return true; /* clients come and go: never an error for the RTS */
}

static void stop_writer(void)
{
    pthread_mutex_lock(&client_lock);
    if (client >= 0) {
        close(client);
        client = -1;
    }
    pthread_mutex_unlock(&client_lock);
}

static const EventLogWriter socket_writer = {
    .initEventLogWriter = NULL,
    .writeEventLog = send_events,
    .flushEventLog = NULL,
    .stopEventLogWriter = stop_writer,
};

/* serve takes one client after another. */
static void *serve(void *unused)
{
    (void)unused;
    for (;;) {
        int fd = accept(listener, NULL, NULL);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            perror("eventlog_socket: accept");
            return NULL;
        }
        pthread_mutex_lock(&client_lock);
        client = fd;
        header_sent = false;
        pthread_cond_broadcast(&client_came);
        pthread_mutex_unlock(&client_lock);
        startEventLogging(&socket_writer);

        struct pollfd hangup = {.fd = fd, .events = POLLRDHUP};
        while (poll(&hangup, 1, -1) < 0 && errno == EINTR)
            ;
        if (eventLogStatus() == EVENTLOG_RUNNING)
            endEventLogging();
    }
}

void hecscope_eventlog_socket_start(const char *path, int wait)
{
    if (eventLogStatus() == EVENTLOG_RUNNING)
        endEventLogging(); /* the RTS's own writer (+RTS -l -ol/dev/null) */

    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof addr.sun_path) {
        fprintf(stderr, "eventlog_socket: socket path too long: %s\n", path);
        return;
    }
    strcpy(addr.sun_path, path);
    unlink(path);
    listener = socket(AF_UNIX, SOCK_STREAM, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(listener, 4) < 0) {
        perror("eventlog_socket: listening");
        return;
    }
    pthread_t t;
    if (pthread_create(&t, NULL, serve, NULL) != 0) {
        perror("eventlog_socket: pthread_create");
        return;
    }
    pthread_detach(t);
    if (wait) {
        pthread_mutex_lock(&client_lock);
        while (client < 0)
            pthread_cond_wait(&client_came, &client_lock);
        pthread_mutex_unlock(&client_lock);
    }
}

/*
 * eventlog_socket.c: test support for hecscope's live tests. It serves the
 * program's eventlog on a Unix socket the way Well-Typed's eventlog-socket
 * library (version 0.1.3.0, built with its control feature) does, rudeness
 * included, so that the tests meet what users meet. Its behaviour is read
 * from the library's cbits/eventlog_socket.c (writer_write, writer_stop),
 * cbits/eventlog_socket/worker.c (es_worker_step_listen, es_worker_step_write,
 * es_worker_step_nonwrite) and cbits/eventlog_socket/control.c
 * (es_control_loop and its parser), and was watched against the real
 * library built with GHC 9.0.2. The library's source is not copied here.
 *
 * What it does, as the library does:
 *
 *  - One client at a time. A worker thread accepts a client only while it
 *    has none (listen backlog 5): a second client is connected by the
 *    kernel and waits in the backlog, sent nothing, until the first leaves.
 *
 *  - Each new client gets a fresh eventlog: endEventLogging() (the RTS's own
 *    writer, +RTS -l -ol/dev/null, for the first client; this writer for the
 *    others), then startEventLogging() with this writer, from the worker
 *    thread, WITHOUT pausing the RTS. GHC 9.0.2's start and end take no lock
 *    and do not stop the capabilities (rts/eventlog/EventLog.c), so what a
 *    client gets is what GHC writes then: the empty block marker that the
 *    global buffer got after endEventLogging's last flush comes before the
 *    header (capability 0xFFFF, 24 bytes); events left in the capabilities'
 *    buffers from before the client came may follow the header outside any
 *    block; and the capabilities, still posting while their buffers are
 *    flushed and reset, can mix a block marker into an event (a stream
 *    corrupt a few bytes or megabytes on). The client is told of the new
 *    connection before logging restarts.
 *
 *  - Writes never block the program: the RTS's flush writes to the
 *    non-blocking socket; what does not fit is queued (copied), and the
 *    worker thread sends the queue when the socket can take it. With no
 *    client, the events are dropped.
 *
 *  - A client that hangs up (POLLHUP) loses what was queued for it, and
 *    the program forgets its descriptor but never closes it: every client
 *    that ever left holds a descriptor until the program exits.
 *
 *  - At exit, the RTS's endEventLogging flushes every buffer and writes the
 *    end marker, then stops the writer, which closes the client's socket
 *    and frees the queue: whatever the client had not yet taken when the
 *    program exited is lost, the end marker with it (often, on a Unix
 *    socket: the last flush is megabytes, the socket buffer a few hundred
 *    kilobytes). The stream then ends cut.
 *
 *  - A control thread reads the current client's socket for control
 *    commands (protocol version 0: magic F0 9E 97 8C, version 0, namespace
 *    length byte and bytes, command id byte) and answers nothing. The
 *    built-in namespace "eventlog-socket" has 1 startProfiling, 2
 *    stopProfiling, 3 startHeapProfiling, 4 stopHeapProfiling and
 *    5 requestHeapCensus; other commands are ignored. GHC 9.0.2 has no
 *    requestHeapCensus (9.2 added it): this does what 9.2's does, setting
 *    the RTS's performHeapProfile when a heap profile was asked for
 *    (+RTS -h…; -hT needs no profiling build), so that the scheduler takes
 *    a census at its next loop. The census's events go into the global
 *    event buffer, which GHC 9.0.2 writes out only when its 2 MiB fill or
 *    at exit. The library's quirks are kept: a namespace matches a
 *    registered one if either is a prefix of the other, a wrong version
 *    byte is then read as the namespace's length, and a command that
 *    comes with the client's hang-up is not read.
 *
 * Start it early in main, from a safe foreign call:
 * hecscope_eventlog_socket_start(path, wait), wait as the library's
 * GHC_EVENTLOG_WAIT: return once the first client is connected. With
 * HECSCOPE_EVENTLOG_SOCKET_DEBUG=1 in the environment it says on stderr
 * what it does (clients, hang-ups, commands), as the library's debug build
 * does.
 */
#include <Rts.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#if __GLASGOW_HASKELL__ != 900
#error "eventlog_socket.c imitates eventlog-socket on GHC 9.0; see the comment at the top"
#endif

/* GHC 9.0.2's RTS (rts/Proftimer.c); not in its public headers. */
extern bool performHeapProfile;
extern void startHeapProfTimer(void);
extern void stopHeapProfTimer(void);

/* The library is built with -std=c11 -D_POSIX_C_SOURCE=200112L, where
 * poll.h has no POLLRDHUP, and its poll.h then defines it as POLLHUP: a
 * hang-up is a client that closed its socket. */
#define HANGUP POLLHUP
#define LISTEN_BACKLOG 5
#define POLL_LISTEN_TIMEOUT 10000
#define POLL_WRITE_TIMEOUT 1000

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER; /* guards what follows */
static pthread_cond_t new_connection = PTHREAD_COND_INITIALIZER;
static int client_fd = -1;
static bool had_first_connection;

struct item {
    unsigned char *orig, *data;
    size_t size;
    struct item *next;
};
static struct item *queue_head, *queue_last; /* what the socket has yet to take */

static int listen_fd = -1;
static int wake_pipe[2] = {-1, -1};
static char *sock_path;
static bool debug;

#define say(...)                                                                                   \
    do {                                                                                           \
        if (debug) {                                                                               \
            fprintf(stderr, "eventlog_socket: " __VA_ARGS__);                                      \
            fputc('\n', stderr);                                                                   \
        }                                                                                          \
    } while (0)

static void queue_push(const void *data, size_t size)
{
    struct item *it = malloc(sizeof *it);
    it->orig = it->data = malloc(size);
    memcpy(it->data, data, size);
    it->size = size;
    it->next = NULL;
    bool was_empty = queue_head == NULL;
    if (queue_last)
        queue_last->next = it;
    else
        queue_head = it;
    queue_last = it;
    if (was_empty) {
        unsigned char b = 1;
        if (write(wake_pipe[1], &b, 1) < 0) { /* the worker is awake anyway */
        }
    }
}

static void queue_pop(void)
{
    struct item *it = queue_head;
    if (!it)
        return;
    queue_head = it->next;
    if (queue_last == it)
        queue_last = NULL;
    free(it->orig);
    free(it);
}

static void queue_free(void)
{
    while (queue_head)
        queue_pop();
}

/* writer_write: the RTS's flush of a buffer, from whichever thread flushes. */
static bool writer_write(void *eventlog, size_t size)
{
    pthread_mutex_lock(&mutex);
    if (queue_head != NULL) {
        queue_push(eventlog, size);
    } else if (client_fd < 0) {
        /* Before the first client the library queues the events of a
         * writer attached from a C main; this one is attached only for a
         * client. With no client, they are dropped. */
        if (!had_first_connection)
            queue_push(eventlog, size);
    } else {
        ssize_t n = write(client_fd, eventlog, size);
        if (n >= 0 && (size_t)n < size)
            queue_push((unsigned char *)eventlog + n, size - (size_t)n);
        else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            queue_push(eventlog, size);
        /* EPIPE (the RTS ignores SIGPIPE) or another error: dropped. */
    }
    pthread_mutex_unlock(&mutex);
    return true;
}

static void writer_flush(void) {}

/* writer_stop: endEventLogging's last call, for a new client (when there is
 * none: nothing to do) and at exit (the client's socket is closed, and what
 * it had not taken is lost). */
static void writer_stop(void)
{
    pthread_mutex_lock(&mutex);
    if (client_fd >= 0) {
        say("closing the client's socket at the end of logging; %s", queue_head ? "dropping what it has not taken" : "it has taken everything");
        close(client_fd);
        client_fd = -1;
        queue_free();
    }
    pthread_mutex_unlock(&mutex);
}

static const EventLogWriter socket_writer = {
    .writeEventLog = writer_write,
    .flushEventLog = writer_flush,
    .stopEventLogWriter = writer_stop,
};

/* forget_client: the client hung up. Its descriptor is never closed. */
static void forget_client(int fd)
{
    pthread_mutex_lock(&mutex);
    if (client_fd == fd) {
        say("client on fd %d hung up; the descriptor stays open", fd);
        client_fd = -1;
        queue_free();
    }
    pthread_mutex_unlock(&mutex);
}

static void step_listen(void)
{
    if (listen(listen_fd, LISTEN_BACKLOG) < 0) {
        perror("eventlog_socket: listen");
        exit(1);
    }
    struct pollfd p = {.fd = listen_fd, .events = POLLIN};
    int r;
    while ((r = poll(&p, 1, POLL_LISTEN_TIMEOUT)) <= 0)
        if (r < 0 && errno != EINTR) {
            perror("eventlog_socket: poll");
            exit(1);
        }
    int fd = accept(listen_fd, NULL, NULL);
    if (fd < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED)
            return;
        perror("eventlog_socket: accept");
        exit(1);
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    say("client accepted on fd %d; restarting event logging (the RTS is not paused)", fd);

    if (eventLogStatus() == EVENTLOG_RUNNING)
        endEventLogging();

    pthread_mutex_lock(&mutex);
    client_fd = fd;
    pthread_cond_broadcast(&new_connection);
    pthread_mutex_unlock(&mutex);

    while (!startEventLogging(&socket_writer))
        ;

    pthread_mutex_lock(&mutex);
    had_first_connection = true;
    pthread_mutex_unlock(&mutex);
}

static void step_nonwrite(int fd)
{
    struct pollfd p[2] = {{.fd = fd, .events = HANGUP}, {.fd = wake_pipe[0], .events = POLLIN}};
    if (poll(p, 2, -1) < 0)
        return;
    if (p[1].revents & POLLIN) {
        unsigned char b[32];
        while (read(wake_pipe[0], b, sizeof b) > 0)
            ;
        return;
    }
    if (p[0].revents & POLLHUP)
        forget_client(fd);
}

static void step_write(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLOUT | HANGUP};
    if (poll(&p, 1, POLL_WRITE_TIMEOUT) <= 0)
        return;
    if (p.revents & POLLHUP) {
        forget_client(fd);
        return;
    }
    if (!(p.revents & POLLOUT))
        return;
    pthread_mutex_lock(&mutex);
    while (queue_head) {
        struct item *it = queue_head;
        ssize_t n = write(client_fd, it->data, it->size);
        if (n < 0) {
            if (errno == EPIPE) {
                client_fd = -1; /* and never closed */
                queue_free();
            }
            break;
        }
        if ((size_t)n < it->size) {
            it->data += n;
            it->size -= (size_t)n;
            break;
        }
        queue_pop();
    }
    pthread_mutex_unlock(&mutex);
}

static void *worker(void *unused)
{
    (void)unused;
    for (;;) {
        pthread_mutex_lock(&mutex);
        int fd = client_fd;
        bool empty = queue_head == NULL;
        pthread_mutex_unlock(&mutex);
        if (fd < 0)
            step_listen();
        else if (empty)
            step_nonwrite(fd);
        else
            step_write(fd);
    }
    return NULL;
}

/* The control protocol's parser (control.c), its state kept across reads
 * and reset when the client changes. */
static const unsigned char magic[4] = {0xF0, 0x9E, 0x97, 0x8C};
static const char builtin[] = "eventlog-socket";
enum parse_state { MAGIC, VERSION, NAMESPACE_LEN, NAMESPACE, COMMAND_ID };
static enum parse_state state;
static unsigned magic_pos, ns_len, ns_pos;
static char ns[256];

static void restart_parser(const unsigned char *byte)
{
    state = MAGIC;
    magic_pos = byte && *byte == magic[0] ? 1 : 0;
}

/* A namespace matches the built-in one if either is a prefix of the other
 * (the library compares their shorter length). */
static bool builtin_namespace(void)
{
    size_t n = ns_len < strlen(builtin) ? ns_len : strlen(builtin);
    return strncmp(ns, builtin, n) == 0;
}

static void handle(unsigned char id)
{
    switch (id) {
    case 1:
        startProfTimer();
        break;
    case 2:
        stopProfTimer();
        break;
    case 3:
        startHeapProfTimer();
        break;
    case 4:
        stopHeapProfTimer();
        break;
    case 5: /* GHC 9.2's requestHeapCensus */
        if (RtsFlags.ProfFlags.doHeapProfile)
            __atomic_store_n(&performHeapProfile, true, __ATOMIC_RELAXED);
        break;
    default:
        say("unknown command %s:%u ignored", builtin, id);
        return;
    }
    say("command %s:%u run%s", builtin, id,
        id == 5 && !RtsFlags.ProfFlags.doHeapProfile ? " (no heap profile asked for: nothing to do)" : "");
}

static void parse(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char b = p[i];
        switch (state) {
        case MAGIC:
            if (b == magic[magic_pos]) {
                if (++magic_pos == sizeof magic)
                    state = VERSION;
            } else {
                restart_parser(&b);
            }
            continue;
        case VERSION:
            if (b == 0) {
                state = NAMESPACE_LEN;
                continue;
            }
            restart_parser(&b);
            /* The library falls through here: the wrong version byte is
             * read as the namespace's length. */
            /* fall through */
        case NAMESPACE_LEN:
            if (b == 0) {
                restart_parser(&b);
            } else {
                ns_len = b;
                ns_pos = 0;
                state = NAMESPACE;
            }
            continue;
        case NAMESPACE:
            ns[ns_pos++] = (char)b;
            if (ns_pos < ns_len)
                continue;
            if (builtin_namespace()) {
                state = COMMAND_ID;
            } else {
                say("unknown namespace %.*s ignored", (int)ns_len, ns);
                restart_parser(&b);
            }
            continue;
        case COMMAND_ID:
            handle(b);
            restart_parser(NULL);
            continue;
        }
    }
}

static void *control(void *unused)
{
    (void)unused;
    int fd = -1;
    for (;;) {
        pthread_mutex_lock(&mutex);
        int now = client_fd;
        if (now < 0) {
            if (fd >= 0) {
                fd = -1;
                restart_parser(NULL);
            }
            pthread_cond_wait(&new_connection, &mutex);
            pthread_mutex_unlock(&mutex);
            continue;
        }
        if (now != fd) {
            fd = now;
            restart_parser(NULL);
        }
        pthread_mutex_unlock(&mutex);

        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, POLL_LISTEN_TIMEOUT);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            perror("eventlog_socket: control poll");
            return NULL;
        }
        /* A hang-up is looked at before the input: a command that came
         * with it is not read. */
        if (r == 0 || (p.revents & (POLLNVAL | POLLHUP | POLLERR)))
            continue;
        unsigned char chunk[256];
        ssize_t n = recv(fd, chunk, sizeof chunk, 0);
        if (n > 0)
            parse(chunk, (size_t)n);
    }
}

static void cleanup(void)
{
    if (sock_path)
        unlink(sock_path);
}

void hecscope_eventlog_socket_start(const char *path, int wait)
{
    const char *d = getenv("HECSCOPE_EVENTLOG_SOCKET_DEBUG");
    debug = d && strcmp(d, "1") == 0;
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof addr.sun_path) {
        fprintf(stderr, "eventlog_socket: socket path too long: %s\n", path);
        return;
    }
    strcpy(addr.sun_path, path);
    unlink(path);
    /* Bound here, listened on by the worker thread, as the library does. */
    listen_fd = socket(AF_UNIX, SOCK_STREAM, 0);
    if (listen_fd < 0 || bind(listen_fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        perror("eventlog_socket: bind");
        return;
    }
    sock_path = strdup(path);
    if (pipe(wake_pipe) < 0) {
        perror("eventlog_socket: pipe");
        return;
    }
    fcntl(wake_pipe[0], F_SETFL, O_NONBLOCK);
    fcntl(wake_pipe[1], F_SETFL, O_NONBLOCK);
    atexit(cleanup);
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL) != 0 || pthread_detach(t) != 0 ||
        pthread_create(&t, NULL, control, NULL) != 0 || pthread_detach(t) != 0) {
        perror("eventlog_socket: pthread_create");
        return;
    }
    if (wait) {
        pthread_mutex_lock(&mutex);
        while (client_fd < 0)
            pthread_cond_wait(&new_connection, &mutex);
        pthread_mutex_unlock(&mutex);
    }
}

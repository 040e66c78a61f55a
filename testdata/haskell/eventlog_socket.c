/*
 * eventlog_socket.c: test support for hecscope's live tests. An
 * EventLogWriter that serves the program's eventlog on a Unix socket, one
 * client at a time, the way GHC's eventlog-socket library does: when a
 * client connects, event logging is started again with this writer, so the
 * RTS writes the header to that client first; when the client hangs up,
 * the events go nowhere until the next one. At exit the RTS ends event
 * logging itself: the client gets the end marker and the connection closes.
 *
 * Start it early in main, from a safe foreign call:
 * hecscope_eventlog_socket_start(path, wait).
 *
 * Restarting event logging in a running GHC 9.0.2 program takes care.
 * Its startEventLogging and endEventLogging (rts/eventlog/EventLog.c) take
 * no lock and do not stop the capabilities: endEventLogging flushes and
 * resets every capability's event buffer, and startEventLogging writes the
 * header into the global buffer and a block marker into every capability's
 * buffer, all from the calling thread while the capabilities go on posting
 * their own events into the same buffers. The bytes interleave: a client
 * got a block marker claiming capability 522 right after the header, or a
 * capability's event cut short by the marker a megabyte or two on, and the
 * stream was corrupt there. Stopping event logging does not stop the
 * posting either: the capabilities fill their buffers while no writer is
 * set, the RTS drops a full one ("printAndClearEventLog: could not flush
 * event log") and goes on without a block marker, and what a buffer held
 * when logging started again was sent after the new header (up to 2 MiB
 * a capability of events from before the client came, most outside any
 * block; the global buffer's came before the header).
 *
 * So every change of writer here happens with the RTS paused (all
 * capabilities held by the changing thread, as setNumCapabilities and GHC
 * 9.2's rts_pause do it, and the global buffer's lock held), and logging
 * never stops: with no client the events go to a writer that drops them,
 * and a client's session begins by ending that one, which flushes every
 * buffer into it. The new session's buffers then hold nothing but the
 * empty block marker each got when the old session ended: the global
 * buffer's comes before the header, and the client gets neither that nor
 * the capabilities' ones; it gets the header, then the events posted after
 * it, each in a block of the new session.
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

#if __GLASGOW_HASKELL__ != 900
#error "eventlog_socket.c pauses the RTS through GHC 9.0's internals; see the comment at the top"
#endif

/* GHC 9.0's RTS internals for pausing it (rts/Task.h, rts/Schedule.h,
 * rts/eventlog/EventLog.c); none of them is in its public headers. */
typedef struct Task_ Task;
extern Task *newBoundTask(void);
extern void boundTaskExiting(Task *task);
extern void stopAllCapabilities(Capability **pCap, Task *task);
extern void releaseAllCapabilities(uint32_t n, Capability *keep_cap, Task *task);
extern pthread_mutex_t eventBufMutex;

static pthread_mutex_t client_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t client_came = PTHREAD_COND_INITIALIZER;
static int client = -1;
static int listener = -1;
static bool header_sent; /* the client has had the header's first bytes */
static int clients_served; /* sessions begun for a client */

/* pause_rts stops every capability and the posting of events without one,
 * for the calling thread to change the writer; it must not hold a
 * capability (a safe foreign call does not). */
static Task *pause_rts(void)
{
    Task *task = newBoundTask();
    stopAllCapabilities(NULL, task);
    pthread_mutex_lock(&eventBufMutex);
    return task;
}

/* resume_rts lets the program run again after pause_rts. */
static void resume_rts(Task *task)
{
    pthread_mutex_unlock(&eventBufMutex);
    releaseAllCapabilities(n_capabilities, NULL, task);
    boundTaskExiting(task);
}

static bool drop_events(void *events, size_t size)
{
    (void)events;
    (void)size;
    return true;
}

/* discard_writer takes the events while no client is connected. */
static const EventLogWriter discard_writer = {
    .writeEventLog = drop_events,
};

/* header_offset returns where the header begins in the first n bytes a
 * session writes, or -1 if it is not where the RTS puts it: first, or
 * after the empty block marker that the global buffer got when the
 * previous session was ended (type 18, 24 bytes, capability 0xffff). */
static ssize_t header_offset(const unsigned char *p, size_t n)
{
    static const unsigned char magic[4] = {0x68, 0x64, 0x72, 0x62}; /* "hdrb" */
    const size_t marker = 24;
    if (n >= sizeof magic && memcmp(p, magic, sizeof magic) == 0)
        return 0;
    if (n >= marker + sizeof magic && p[0] == 0 && p[1] == 18 && p[marker - 2] == 0xff &&
        p[marker - 1] == 0xff && memcmp(p + marker, magic, sizeof magic) == 0)
        return (ssize_t)marker;
    return -1;
}

/* empty_blocks returns how many of the n bytes at p are empty block
 * markers (24 bytes each, of type 18 and size 24) that more bytes follow.
 * A session's first write from each capability begins with one: the
 * marker its buffer got when the previous session ended there, closed as
 * the new one began. (A write of an empty block alone is a block of this
 * session: the global buffer's at exit, when nothing was posted there.) */
static size_t empty_blocks(const unsigned char *p, size_t n)
{
    static const unsigned char empty_size[4] = {0, 0, 0, 24};
    const size_t marker = 24;
    size_t skip = 0;
    while (n - skip > marker && p[skip] == 0 && p[skip + 1] == 18 &&
           memcmp(p + skip + 10, empty_size, sizeof empty_size) == 0)
        skip += marker;
    return skip;
}

static bool send_events(void *events, size_t size)
{
    pthread_mutex_lock(&client_lock);
    const unsigned char *p = events;
    if (client >= 0 && !header_sent) {
        ssize_t at = header_offset(p, size);
        if (at < 0) {
            fprintf(stderr, "eventlog_socket: a session began without the header; dropping the client\n");
            shutdown(client, SHUT_RDWR); /* wakes the serving thread's poll */
            close(client);
            client = -1;
        } else {
            p += at;
            size -= (size_t)at;
            header_sent = true;
        }
    } else if (client >= 0) {
        size_t skip = empty_blocks(p, size);
        p += skip;
        size -= skip;
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

/* stop_writer ends a client's session: at its hangup, or when the RTS ends
 * event logging at exit (then the client gets the end of the stream). */
static void stop_writer(void)
{
    pthread_mutex_lock(&client_lock);
    if (client >= 0) {
        shutdown(client, SHUT_RDWR); /* wakes the serving thread's poll */
        close(client);
        client = -1;
    }
    pthread_mutex_unlock(&client_lock);
}

static const EventLogWriter socket_writer = {
    .writeEventLog = send_events,
    .stopEventLogWriter = stop_writer,
};

/* switch_session ends the running session, if any, and starts one for the
 * client fd, or one that drops the events if fd < 0, with the RTS paused. */
static void switch_session(int fd)
{
    Task *task = pause_rts();
    if (eventLogStatus() == EVENTLOG_RUNNING)
        endEventLogging(); /* the socket writer's stop closes its client */
    pthread_mutex_lock(&client_lock);
    client = fd;
    header_sent = false;
    pthread_mutex_unlock(&client_lock);
    startEventLogging(fd >= 0 ? &socket_writer : &discard_writer);
    resume_rts(task);
}

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
        switch_session(fd);
        pthread_mutex_lock(&client_lock);
        clients_served++;
        pthread_cond_broadcast(&client_came);
        pthread_mutex_unlock(&client_lock);

        struct pollfd hangup = {.fd = fd, .events = POLLRDHUP};
        while (poll(&hangup, 1, -1) < 0 && errno == EINTR)
            ;
        /* The client hung up, unless the session was ended here: by the
         * RTS at exit (which is then not to be touched) or for want of a
         * header (the events go nowhere until the next client). */
        pthread_mutex_lock(&client_lock);
        bool hung_up = client == fd;
        pthread_mutex_unlock(&client_lock);
        if (hung_up)
            switch_session(-1);
    }
}

void hecscope_eventlog_socket_start(const char *path, int wait)
{
    /* The RTS's own writer (+RTS -l -ol/dev/null) gives way to the one
     * that drops the events until a client comes. */
    switch_session(-1);

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
        while (clients_served == 0)
            pthread_cond_wait(&client_came, &client_lock);
        pthread_mutex_unlock(&client_lock);
    }
}

/* restart-fifo helper: end and restart event logging with the RTS's default
 * file writer (GHC 9.0.2 API from <rts/EventLogWriter.h>, included by Rts.h). */
#include <Rts.h>
#include <stdio.h>

int restart_eventlog(void) {
  endEventLogging();
  return startEventLogging(&FileEventLogWriter) ? 1 : 0;
}

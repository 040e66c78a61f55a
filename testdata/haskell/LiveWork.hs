{-# LANGUAGE BangPatterns #-}
-- LiveWork: a program to watch live, for hecscope's live tests and
-- benchmarks.
--
-- Build (the C file serves the eventlog on a Unix socket, see below):
--   ghc -O1 -threaded -rtsopts -eventlog LiveWork.hs eventlog_socket.c -o livework
--
-- Modes:
--   livework busy SECONDS     forks labelled threads and sparks parallel work
--                             in rounds of ~20 ms for about SECONDS seconds
--   livework busy stdin       the same until its standard input is closed
--   livework quiet SECONDS    a traceEventIO every 100 ms and nothing else
--   livework quiet stdin      the same until its standard input is closed
--   livework threads N BATCH  forks N short threads, BATCH at a time (every
--                             tenth labelled): with +RTS -N2 this saturates
--                             both cores and writes ~17 MB/s of eventlog
--
-- With HECSCOPE_EVENTLOG_SOCKET=/path/to.sock in the environment, the
-- program serves its eventlog on that Unix socket as Well-Typed's
-- eventlog-socket library (0.1.3.0) does, rudely: one client at a time
-- (others wait, connected and sent nothing), logging restarted for each
-- without pausing the RTS (a block marker before the header), the end of
-- the stream lost at exit when the client has not taken it, and control
-- commands read from the client (see eventlog_socket.c). With
-- HECSCOPE_EVENTLOG_SOCKET_WAIT=1 it waits for the first client before it
-- starts working; with HECSCOPE_EVENTLOG_SOCKET_DEBUG=1 it says on stderr
-- what the socket does. Run it with +RTS -l -ol/dev/null, so that the
-- RTS's own file writer writes nowhere until the first client comes.
module Main (main) where

import Control.Concurrent
import Control.Exception (finally)
import Control.Monad
import Control.Parallel (par, pseq)
import Debug.Trace (traceEventIO)
import Foreign.C.String (CString, withCString)
import Foreign.C.Types (CInt (..))
import GHC.Conc (labelThread)
import System.Environment (getArgs, lookupEnv)
import System.IO (hFlush, stdout)
import Data.Time.Clock (diffUTCTime, getCurrentTime)

foreign import ccall safe "hecscope_eventlog_socket_start"
  c_socketStart :: CString -> CInt -> IO ()

main :: IO ()
main = do
  sock <- lookupEnv "HECSCOPE_EVENTLOG_SOCKET"
  wait <- lookupEnv "HECSCOPE_EVENTLOG_SOCKET_WAIT"
  forM_ sock $ \path ->
    withCString path $ \p -> c_socketStart p (if wait == Just "1" then 1 else 0)
  args <- getArgs
  case args of
    ["busy", "stdin"] -> untilStdinCloses busyRound
    ["busy", s] -> forSeconds (read s) busyRound
    ["quiet", "stdin"] -> untilStdinCloses quietRound
    ["quiet", s] -> forSeconds (read s) quietRound
    ["threads", n, b] -> manyThreads (read n) (read b)
    _ -> error "usage: livework busy SECONDS|stdin | quiet SECONDS|stdin | threads N BATCH"
  putStrLn "livework done"

-- | Run rounds until the given number of seconds have passed.
forSeconds :: Double -> (Int -> IO ()) -> IO ()
forSeconds secs act = do
  start <- getCurrentTime
  let go !r = do
        act r
        now <- getCurrentTime
        when (realToFrac (diffUTCTime now start) < secs) $ go (r + 1)
  go 1

-- | Run rounds until standard input is closed (the tests end the program
-- so, when they are done with it, whatever the machine's load). Each line
-- read is echoed ("livework read LINE") by a thread that then blocks, and
-- so returns to the scheduler, which takes a requested heap census then.
untilStdinCloses :: (Int -> IO ()) -> IO ()
untilStdinCloses act = do
  closed <- newEmptyMVar
  let echo l = putStrLn ("livework read " ++ l) >> hFlush stdout
  _ <- forkIO $ (getContents >>= mapM_ echo . lines) `finally` putMVar closed ()
  let go !r = do
        act r
        open <- isEmptyMVar closed
        when open $ go (r + 1)
  go 1

-- | One busy round: 200 labelled threads that each sum a little, and a
-- sparked parallel fib.
busyRound :: Int -> IO ()
busyRound r = do
  dones <- forM [1 .. 200 :: Int] $ \i -> do
    d <- newEmptyMVar
    t <- forkIO $ do
      let !s = sum [1 .. (r * 7 + i) `mod` 500]
      putMVar d s
    when (i `mod` 20 == 0) $ labelThread t ("round-" ++ show r ++ "-" ++ show i)
    return d
  xs <- mapM takeMVar dones
  let !f = pfib 20
  when (sum xs + f < 0) $ putStrLn "impossible"

pfib :: Int -> Int
pfib n
  | n < 12 = fib n
  | otherwise = let a = pfib (n - 1); b = pfib (n - 2) in a `par` (b `pseq` a + b)

fib :: Int -> Int
fib n = if n < 2 then n else fib (n - 1) + fib (n - 2)
{-# NOINLINE fib #-}

-- | One quiet round: a user event, then 100 ms asleep.
quietRound :: Int -> IO ()
quietRound r = do
  traceEventIO ("tick " ++ show r)
  threadDelay 100000

-- | Fork n short threads, batch at a time.
manyThreads :: Int -> Int -> IO ()
manyThreads n batch =
  forM_ [1, batch + 1 .. n] $ \start -> do
    dones <- forM [start .. min n (start + batch - 1)] $ \i -> do
      d <- newEmptyMVar
      t <- forkIO $ do
        let !s = sum [1 .. i `mod` 100]
        putMVar d ()
      when (i `mod` 10 == 0) $ labelThread t ("worker-" ++ show i)
      return d
    mapM_ takeMVar dones

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
--   livework quiet SECONDS    a traceEventIO every 100 ms and nothing else
--   livework threads N BATCH  forks N short threads, BATCH at a time (every
--                             tenth labelled): with +RTS -N2 this saturates
--                             both cores and writes ~17 MB/s of eventlog
--
-- With HECSCOPE_EVENTLOG_SOCKET=/path/to.sock in the environment, the
-- program serves its eventlog on that Unix socket, one client at a time,
-- as GHC's eventlog-socket library does (each client gets the eventlog from
-- a fresh start, header first); with HECSCOPE_EVENTLOG_SOCKET_WAIT=1 it
-- waits for the first client before it starts working. Run it then with
-- +RTS -l -ol/dev/null, so that the RTS's own file writer writes nowhere.
module Main (main) where

import Control.Concurrent
import Control.Monad
import Control.Parallel (par, pseq)
import Debug.Trace (traceEventIO)
import Foreign.C.String (CString, withCString)
import Foreign.C.Types (CInt (..))
import GHC.Conc (labelThread)
import System.Environment (getArgs, lookupEnv)
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
    ["busy", s] -> forSeconds (read s) busyRound
    ["quiet", s] -> forSeconds (read s) quietRound
    ["threads", n, b] -> manyThreads (read n) (read b)
    _ -> error "usage: livework busy SECONDS | quiet SECONDS | threads N BATCH"
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

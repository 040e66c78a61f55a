{-# OPTIONS_GHC -feager-blackholing #-}
{-# LANGUAGE BangPatterns #-}
-- ParWork: a deterministic-in-structure parallel/concurrent workload whose
-- eventlog exercises what a parallel profile viewer has to display.
--
-- Build:  ghc -O2 -threaded -rtsopts -eventlog ParWork.hs -o parwork
-- Run:    ./parwork SCALE +RTS -N2 -lf -A256k -ol<out>.eventlog -RTS
--         (-lf = the default -l classes "sgpu" plus full-detail spark events)
--
-- SCALE is the number of rounds (default 1).  Every round runs the same six
-- phases, each bracketed by  traceEventIO "START phase-N" / "STOP phase-N"
-- (the ghc-events-analyze span convention), and starts with a
-- traceMarkerIO "round R" marker:
--
--   phase-1  divide-and-conquer fib with par/pseq (converted + fizzled sparks)
--   phase-2  Strategies: parList rdeepseq and parBuffer rdeepseq
--   phase-3  duds (sparking already-evaluated values) and, every 8th round,
--            a spark burst larger than the spark pool (overflowed sparks)
--   phase-4  forkIO/forkOn workers: MVar ping-pong handoffs, a pipeline,
--            threadDelay, yield, killThread of a sleeping thread
--   phase-5  several threads entering one shared expensive thunk
--            (blocked on black hole; module is built with eager blackholing)
--   phase-6  STM: waiters that `retry` until a TVar counter reaches their
--            target, while producers bump it
--
-- Every forked thread gets a label via GHC.Conc.labelThread.  Nothing depends
-- on randomness; only the scheduling (and therefore timestamps, which spark
-- gets converted vs fizzled, migration) differs between runs.
module Main (main) where

import Control.Concurrent
import Control.Concurrent.STM
import Control.Exception (evaluate)
import Control.Monad
import Control.Parallel (par, pseq)
import Control.Parallel.Strategies
import Data.List (foldl')
import Debug.Trace (traceEventIO, traceMarkerIO)
import GHC.Conc (labelThread)
import System.Environment (getArgs)
import System.IO

main :: IO ()
main = do
  args <- getArgs
  let scale = case args of
        (s:_) -> max 1 (read s)
        _     -> 1 :: Int
  me <- myThreadId
  labelThread me "main"
  hSetBuffering stdout LineBuffering
  traceMarkerIO ("parwork start scale=" ++ show scale)
  totals <- forM [1 .. scale] $ \r -> do
    traceMarkerIO ("round " ++ show r)
    a <- phase 1 (phaseSparks r)
    b <- phase 2 (phaseStrategies r)
    c <- phase 3 (phaseDudsOverflow r)
    d <- phase 4 (phaseThreads r)
    e <- phase 5 (phaseBlackHole r)
    f <- phase 6 (phaseSTM r)
    let !t = a + b + c + d + e + f
    return t
  traceMarkerIO "parwork done"
  putStrLn ("parwork scale=" ++ show scale ++ " checksum=" ++ show (sum totals `mod` 1000000007))

-- | Run an action inside a START/STOP span named phase-N.
phase :: Int -> IO Int -> IO Int
phase n act = do
  let name = "phase-" ++ show n
  traceEventIO ("START " ++ name)
  !x <- act >>= evaluate
  traceEventIO ("STOP " ++ name)
  return x

-- Plain naive fib: cheap to write, tunable cost.
fib :: Int -> Int
fib n | n < 2 = n
      | otherwise = fib (n - 1) + fib (n - 2)
{-# NOINLINE fib #-}

-- Divide and conquer with par/pseq.  Below the cutoff it runs sequentially.
pfib :: Int -> Int -> Int
pfib cutoff n
  | n <= cutoff = fib n
  | otherwise = x `par` (y `pseq` (x + y))
  where
    x = pfib cutoff (n - 1)
    y = pfib cutoff (n - 2)

phaseSparks :: Int -> IO Int
phaseSparks r = do
  -- ~ fib(7)-ish count of sparks per call: 33 sparks for n=18, cutoff=10
  let ns = [18 + (r + k) `mod` 3 | k <- [0 .. 3]]
  xs <- mapM (evaluate . pfib 10) ns
  return (sum xs)

-- Allocation-heavy element function: builds and folds a list.
work :: Int -> [Int]
work k = [ (i * k) `mod` 7919 | i <- [1 .. 200 + (k `mod` 50)] ]

phaseStrategies :: Int -> IO Int
phaseStrategies r = do
  let base = r * 7
      ys = map (sum . work) [base .. base + 63] `using` parList rdeepseq
  a <- evaluate (foldl' (+) 0 ys)
  let zs = withStrategy (parBuffer 8 rdeepseq)
             (map (\k -> fib (10 + k `mod` 5) + length (work k)) [base .. base + 47])
  b <- evaluate (foldl' (+) 0 zs)
  return (a + b)

phaseDudsOverflow :: Int -> IO Int
phaseDudsOverflow r = do
  -- Duds: the values are already in WHNF when sparked.
  let evald = [r .. r + 99] :: [Int]
  _ <- evaluate (foldl' (+) 0 evald)
  d <- evaluate (foldr (\x acc -> x `par` (acc + 1)) (0 :: Int) evald)
  -- Overflow: only every 8th round.  The default -e4096 spark pool is a
  -- deque rounded up to 8192 slots, so 9000 fresh thunks sparked in one go
  -- overflow it.  Thieves take the oldest sparks first, so the first few
  -- are made expensive: the other capability is busy with them while the
  -- pool fills.
  o <- if r `mod` 8 == 0
         then do
           let cost k | k <= 2 = 29
                      | otherwise = k `mod` 4
               thunks = [ fib (cost k) + r | k <- [1 .. 9000 :: Int] ]
           -- build the spine first so the sparking loop itself does not
           -- allocate (no GC can interrupt the burst)
           _ <- evaluate (length thunks)
           n <- evaluate (sparkAll thunks)
           -- force them afterwards so the ones left in the pool fizzle
           s <- evaluate (foldl' (+) 0 thunks)
           return (n + s)
         else return 0
  return (d + o)
  where
    sparkAll :: [Int] -> Int
    sparkAll = go 0
      where go !n [] = n
            go !n (t:ts) = t `par` go (n + 1) ts

phaseThreads :: Int -> IO Int
phaseThreads r = do
  -- (a) MVar ping-pong between two threads pinned to different capabilities.
  ping <- newEmptyMVar
  pong <- newEmptyMVar
  doneA <- newEmptyMVar
  let rounds = 20 :: Int
  t1 <- forkOn 0 $ do
    forM_ [1 .. rounds] $ \i -> putMVar ping i >> takeMVar pong
    putMVar doneA rounds
  labelThread t1 ("pinger-" ++ show r)
  t2 <- forkOn 1 $ forM_ [1 .. rounds] $ \_ -> do
    i <- takeMVar ping
    _ <- evaluate (sum (work i))
    putMVar pong ()
  labelThread t2 ("ponger-" ++ show r)
  -- (b) A pipeline of 4 stages connected by MVars, unpinned (may migrate).
  chans <- replicateM 5 newEmptyMVar
  let stage k inp out = forever $ do
        v <- takeMVar inp
        let !v' = v + fib (8 + k)
        putMVar out v'
  stageTids <- forM (zip3 [1 :: Int ..] chans (tail chans)) $ \(k, inp, out) -> do
    t <- forkIO (stage k inp out)
    labelThread t ("stage-" ++ show k ++ "-r" ++ show r)
    return t
  outs <- forM [1 .. 12 :: Int] $ \i -> do
    putMVar (head chans) i
    takeMVar (last chans)
  mapM_ killThread stageTids
  -- (c) Sleepers: short threadDelays, plus one long sleeper that gets killed.
  sleepDone <- newEmptyMVar
  forM_ [1 .. 4 :: Int] $ \k -> do
    t <- forkIO $ do
      threadDelay (100 * k)
      yield
      putMVar sleepDone k
    labelThread t ("sleeper-" ++ show k ++ "-r" ++ show r)
  long <- forkIO (threadDelay 10000000)
  labelThread long ("doomed-r" ++ show r)
  ss <- replicateM 4 (takeMVar sleepDone)
  killThread long
  n <- takeMVar doneA
  return (n + sum outs + sum ss)

phaseBlackHole :: Int -> IO Int
phaseBlackHole r = do
  -- One shared thunk; the first thread to enter it blackholes it (eager
  -- blackholing), the others block on the black hole until it is updated.
  let shared = fib (20 + r `mod` 2) + r
  results <- newEmptyMVar
  forM_ [1 .. 4 :: Int] $ \k -> do
    t <- forkIO $ do
      v <- evaluate shared
      putMVar results (v + k)
    labelThread t ("bh-" ++ show k ++ "-r" ++ show r)
  vs <- replicateM 4 (takeMVar results)
  return (sum vs)

phaseSTM :: Int -> IO Int
phaseSTM r = do
  counter <- newTVarIO (0 :: Int)
  done <- newEmptyMVar
  -- Waiters block (retry) until the counter reaches their target.
  forM_ [1 .. 3 :: Int] $ \k -> do
    t <- forkIO $ do
      v <- atomically $ do
        c <- readTVar counter
        when (c < k * 5) retry
        return c
      putMVar done v
    labelThread t ("stm-waiter-" ++ show k ++ "-r" ++ show r)
  -- Producers bump the counter, sleeping a little between bumps.
  forM_ [1 .. 2 :: Int] $ \p -> do
    t <- forkIO $ do
      forM_ [1 .. 8 :: Int] $ \_ -> do
        atomically (modifyTVar' counter (+ 1))
        threadDelay 50
      putMVar done 0
    labelThread t ("stm-producer-" ++ show p ++ "-r" ++ show r)
  vs <- replicateM 5 (takeMVar done)
  return (sum vs)

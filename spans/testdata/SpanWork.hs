{-# LANGUAGE BangPatterns #-}
-- SpanWork: a workload whose user spans are known, for the spans package's
-- tests. Three labelled worker threads each run ten "request" spans; each
-- request sleeps (1, 2 or 3 ms by worker) and then computes inside a nested
-- "parse" span. The main thread then runs five 10 ms "sleep" spans and two
-- spans with instance ids ("START 1 job" / "STOP 1 job").
--
-- Build and run (GHC 9.0.2), from this directory:
--   ghc -O2 -threaded -rtsopts -eventlog SpanWork.hs -outputdir /tmp/analysis-gen/build-spanwork -o /tmp/analysis-gen/spanwork
--   /tmp/analysis-gen/spanwork +RTS -N2 -l -olspanwork.eventlog -RTS
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad
import Debug.Trace (traceEventIO, traceMarkerIO)
import GHC.Conc (labelThread)

sumTo :: Int -> Int
sumTo n = go 0 1
  where
    go !acc i | i > n = acc
              | otherwise = go (acc + i * i `mod` 7) (i + 1)

worker :: MVar () -> Int -> IO ()
worker done w = do
  t <- myThreadId
  labelThread t ("worker-" ++ show w)
  forM_ [1 .. 10 :: Int] $ \i -> do
    traceEventIO "START request"
    threadDelay (1000 * w)
    traceEventIO "START parse"
    _ <- evaluate (sumTo (200000 * i))
    traceEventIO "STOP parse"
    traceEventIO "STOP request"
  putMVar done ()

main :: IO ()
main = do
  me <- myThreadId
  labelThread me "main"
  done <- newEmptyMVar
  forM_ [1 .. 3] $ \w -> forkIO (worker done w)
  replicateM_ 3 (takeMVar done)
  traceMarkerIO "workers done"
  replicateM_ 5 $ do
    traceEventIO "START sleep"
    threadDelay 10000
    traceEventIO "STOP sleep"
  traceEventIO "START 1 job"
  traceEventIO "START 2 job"
  threadDelay 3000
  traceEventIO "STOP 1 job"
  threadDelay 3000
  traceEventIO "STOP 2 job"

-- SpanDiff: two runs whose spans differ in a known way, for spans.Diff's
-- tests. Each run does 40 "step" spans that sleep STEP microseconds (the
-- program's argument) and 40 "steady" spans that sleep 1000 µs.
--
-- Build and run (GHC 9.0.2), from this directory:
--   ghc -O2 -threaded -rtsopts -eventlog SpanDiff.hs -outputdir /tmp/analysis-gen/build-spandiff -o /tmp/analysis-gen/spandiff
--   /tmp/analysis-gen/spandiff 2000 +RTS -l -olspandiff-a.eventlog -RTS
--   /tmp/analysis-gen/spandiff 3000 +RTS -l -olspandiff-b.eventlog -RTS
module Main (main) where

import Control.Concurrent (threadDelay)
import Control.Monad (forM_)
import Debug.Trace (traceEventIO)
import System.Environment (getArgs)

main :: IO ()
main = do
  args <- getArgs
  let step = case args of
        (s : _) -> read s
        _ -> 2000
  forM_ [1 .. 40 :: Int] $ \_ -> do
    traceEventIO "START step"
    threadDelay step
    traceEventIO "STOP step"
    traceEventIO "START steady"
    threadDelay 1000
    traceEventIO "STOP steady"

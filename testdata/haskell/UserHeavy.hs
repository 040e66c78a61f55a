{-# LANGUAGE BangPatterns #-}
-- UserHeavy: an eventlog that is mostly user events. Two threads, one on
-- each capability of -N2, each run ROUNDS times: START jobK (K = the round
-- mod 7), a little work, a message with its result, a marker every 64th
-- round, STOP jobK. Made with:
--   ghc -O2 -threaded -rtsopts -eventlog UserHeavy.hs -o userheavy
--   ./userheavy 1200000 +RTS -N2 -l -RTS   # 175 MB, 7.5 M events, 2.35 M spans
--   ./userheavy 7300000 +RTS -N2 -l -RTS   # 1.06 GB
import Control.Concurrent
import Control.Monad
import Debug.Trace (traceEventIO, traceMarkerIO)
import System.Environment

work :: Int -> Int
work n = foldl (+) 0 [1 .. n]

worker :: Int -> Int -> MVar () -> IO ()
worker me rounds done = do
  forM_ [1 .. rounds] $ \i -> do
    traceEventIO ("START job" ++ show (i `mod` 7))
    let !x = work (50 + i `mod` 100)
    traceEventIO ("progress " ++ show me ++ " " ++ show x)
    when (i `mod` 64 == 0) $ traceMarkerIO ("tick " ++ show i)
    traceEventIO ("STOP job" ++ show (i `mod` 7))
  putMVar done ()

main :: IO ()
main = do
  [r] <- getArgs
  let rounds = read r
  ds <- forM [1 .. 2] $ \me -> do
    d <- newEmptyMVar
    _ <- forkOn (me - 1) (worker me rounds d)
    return d
  mapM_ takeMVar ds

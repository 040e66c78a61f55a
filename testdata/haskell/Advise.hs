{-# OPTIONS_GHC -fno-omit-yields #-}
{-# LANGUAGE BangPatterns #-}
-- Advise: one small program per thing `hecscope advise` looks for, each
-- made on purpose, and a healthy one that should draw no warning.
--
-- Build:  ghc -O2 -threaded -rtsopts -eventlog Advise.hs -o advise
-- Run:    ./advise MODE [SCALE] +RTS -N2 -l ... -RTS    (see gen-advise.sh)
--
-- Modes:
--   healthy     balanced parallel work: 64 equal chunks, parMap rdeepseq,
--               run with a large nursery (-A64m); no sequential stretch
--   sequential  parallel work, then one long computation on the main
--               thread alone (the other HEC has nothing to do), then
--               parallel work again
--   gc          allocation-heavy work whose results survive a while (a
--               Data.Map rebuilt over and over), run with a tiny nursery
--               (-A16k): collections every few µs of mutator time
--   sparks      sparks that do not help: duds (sparking values already
--               evaluated, so the work stays on the main thread), fizzles
--               (the parent demands what it just sparked), and one burst
--               larger than the spark pool (overflowed)
--   mvar        four workers that take one MVar as a lock around all of
--               their work: one runs, the others wait on the MVar, and the
--               second HEC idles
--   leak        a lazy accumulator: a running total kept in an IORef with
--               modifyIORef (not modifyIORef'), so the heap grows with a
--               chain of thunks until the end
--
-- The compute kernel is a strict loop over Ints that does not allocate;
-- -fno-omit-yields keeps it interruptible, so that a HEC running it still
-- stops for a collection another HEC asks for.
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad
import Control.Parallel (par)
import Control.Parallel.Strategies
import Data.Bits (xor)
import Data.IORef
import Data.List (foldl')
import qualified Data.Map.Strict as M
import Debug.Trace (traceMarkerIO)
import GHC.Conc (labelThread)
import System.Environment (getArgs)

main :: IO ()
main = do
  args <- getArgs
  me <- myThreadId
  labelThread me "main"
  let (mode, scale) = case args of
        [m] -> (m, 1)
        [m, s] -> (m, read s)
        _ -> error "usage: advise healthy|sequential|gc|sparks|mvar|leak [SCALE]"
  traceMarkerIO ("advise " ++ mode)
  r <- case mode of
    "healthy" -> healthy scale
    "sequential" -> sequential scale
    "gc" -> gcPressure scale
    "sparks" -> sparks scale
    "mvar" -> mvarLock scale
    "leak" -> leak scale
    _ -> error ("unknown mode " ++ mode)
  traceMarkerIO "advise done"
  print r

-- | A strict, non-allocating loop of n steps: the unit of CPU work.
spin :: Int -> Int
spin n = go 0 0
  where
    go !acc !i
      | i >= n = acc
      | otherwise = go ((acc * 1103515245 + i) `xor` (acc `div` 65536)) (i + 1)
{-# NOINLINE spin #-}

-- | About 1 ms of work on this machine at k = 1.
ms :: Int -> Int
ms k = spin (k * 250000)

-- | n equal chunks of c ms each, one spark per chunk.
parChunks :: Int -> Int -> Int
parChunks n c = foldl' (+) 0 (parMap rdeepseq (\i -> spin (c * 250000 + i)) [1 .. n])

healthy :: Int -> IO Int
healthy scale = evaluate (parChunks (64 * scale) 6)

sequential :: Int -> IO Int
sequential scale = do
  traceMarkerIO "parallel"
  a <- evaluate (parChunks (16 * scale) 6)
  traceMarkerIO "sequential"
  b <- evaluate (ms (300 * scale))
  traceMarkerIO "parallel again"
  c <- evaluate (parChunks (16 * scale) 6)
  return (a + b + c)

-- | Rebuild a map of 2000 keys again and again: every insert allocates a
-- new path of nodes, and the map lives until the next round replaces it.
gcPressure :: Int -> IO Int
gcPressure scale = do
  let step m k = M.insert (k `mod` 2000) (k * 3) m
      rounds = [ foldl' step M.empty [r * 7 .. r * 7 + 3000] | r <- [1 .. 6 * scale] ]
  evaluate (foldl' (\acc m -> acc + M.foldl' (+) 0 m) 0 rounds)

sparks :: Int -> IO Int
sparks scale = do
  -- Duds: each value is computed first and sparked afterwards, so the
  -- other HEC never gets anything to do.
  d <- foldM (\acc k -> do
                 !v <- evaluate (spin (5000 + k))
                 return $! v `par` (acc + v `mod` 7))
             0 [1 .. 20000 * scale]
  -- Fizzles: the parent sparks x and demands it at once.
  let fizz k = let x = spin (40000 + k) in x `par` (x + 1)
  f <- evaluate (foldl' (\acc k -> acc + fizz k) 0 [1 .. 1000 * scale])
  -- Overflow: 9000 fresh thunks sparked at once into a pool of 4096
  -- (rounded up to 8192 slots), then forced by the parent.
  let thunks = [ spin (k `mod` 5) + k | k <- [1 .. 9000 * scale] ]
  _ <- evaluate (length thunks)
  o <- evaluate (foldr par (0 :: Int) thunks)
  s <- evaluate (foldl' (+) 0 thunks)
  return (d + f + o + s)

mvarLock :: Int -> IO Int
mvarLock scale = do
  lock <- newMVar (0 :: Int)
  done <- newEmptyMVar
  forM_ [1 .. 4 :: Int] $ \w -> do
    t <- forkIO $ do
      replicateM_ (15 * scale) $ modifyMVar_ lock $ \n -> do
        !x <- evaluate (spin (5000000 + n))
        return (n + x `mod` 7)
      putMVar done ()
    labelThread t ("worker-" ++ show w)
  replicateM_ 4 (takeMVar done)
  readMVar lock

leak :: Int -> IO Int
leak scale = do
  total <- newIORef (0 :: Int)
  forM_ [1 .. 400000 * scale] $ \k -> do
    modifyIORef total (+ (k `mod` 13)) -- lazy: a chain of thunks
    when (k `mod` 40000 == 0) $ void (evaluate (spin 200000))
  readIORef total >>= evaluate

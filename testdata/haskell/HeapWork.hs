{-# LANGUAGE BangPatterns #-}
-- HeapWork: a small allocation-heavy program whose heap profile has a
-- recognisable shape (ramps, plateaus, a thunk leak that is later forced,
-- a release phase).  Used for the heap-profile test logs:
--
--   non-profiled:  ghc -O2 -threaded -rtsopts -eventlog HeapWork.hs -o heapwork
--                  ./heapwork SCALE +RTS -hT -i0.02 -l -N2 -RTS
--   profiled:      ghc -O2 -prof -fprof-auto -rtsopts -eventlog HeapWork.hs -o heapwork-prof
--                  ./heapwork-prof SCALE +RTS -hc -i0.02 -l -p -RTS
--
-- SCALE (default 1) multiplies the sizes of every structure.  Each stage is
-- announced with traceMarkerIO "heap: <stage>" and bracketed by
-- traceEventIO "START <stage>" / "STOP <stage>".
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad
import qualified Data.ByteString.Char8 as B
import qualified Data.IntMap.Strict as IM
import Data.List (foldl')
import qualified Data.Map.Strict as M
import qualified Data.Sequence as Seq
import Debug.Trace (traceEventIO, traceMarkerIO)
import System.Environment (getArgs)

main :: IO ()
main = do
  args <- getArgs
  let scale = case args of
        (s:_) -> max 1 (read s)
        _     -> 1 :: Int
  a <- stage "map-grow" (mapGrow scale)
  b <- stage "bytestrings" (bytestrings scale)
  c <- stage "thunk-leak" (thunkLeak scale)
  d <- stage "two-threads" (twoThreads scale)
  e <- stage "release" (release scale)
  print (a + b + c + d + e)

-- | CPU work with a low allocation rate: keeps the program running (so the
-- -i0.02 census timer fires) without flooding the log with minor GCs.
-- Only anonymous lambdas inside, so -fprof-auto adds no per-call cost centres.
busy :: Int -> Int
busy n =
  foldl' (\acc k -> foldl' (\a j -> (a * 31 + j * k) `rem` 1000003) acc [1 .. 400]
                     + length (show k))
         0 [1 .. n]

-- | Run 'busy', then the action: whatever the action refers to stays live
-- (a plateau in the heap profile) while 'busy' runs.
holding :: Int -> IO Int -> IO Int
holding scale after = do
  b <- evaluate (busy (holdIters * scale))
  r <- after
  return (b `mod` 7 + r)

holdIters :: Int
holdIters = 60000

stage :: String -> IO Int -> IO Int
stage name act = do
  traceMarkerIO ("heap: " ++ name)
  traceEventIO ("START " ++ name)
  !x <- act >>= evaluate
  traceEventIO ("STOP " ++ name)
  return x

-- A Map String [Int] that grows step by step; every step is forced so the
-- residency ramps up over several censuses.
mapGrow :: Int -> IO Int
mapGrow scale = go M.empty (1 :: Int)
  where
    steps = 30
    per = 1000 * scale
    go !m i
      | i > steps = holding scale $
          evaluate (M.size m + sum (map length (M.elems m)) `mod` 1000)
      | otherwise = do
          let new = M.fromList [ (key k, [k .. k + (k `mod` 5)])
                               | k <- [(i - 1) * per .. i * per - 1] ]
              m' = M.union m new
          _ <- evaluate (M.size m')
          _ <- evaluate (M.foldl' (\acc xs -> acc + length xs) 0 m')
          go m' (i + 1)
    key k = "key-" ++ show k

-- Pinned/ARR_WORDS data: many ByteStrings kept in a list for a while.
bytestrings :: Int -> IO Int
bytestrings scale = do
  let mk k = B.pack (concat (replicate (1 + k `mod` 7) (show k)))
  chunks <- forM [1 .. 20 :: Int] $ \i -> do
    let bs = [ mk (i * 1000 + k) | k <- [1 .. 1000 * scale] ]
    !len <- evaluate (foldl' (\acc b -> acc + B.length b) 0 bs)
    return (len, bs)
  let total = sum (map fst chunks)
  -- touch them all again so they stay live until here
  holding scale $
    evaluate (total + sum [ B.length b | (_, bs) <- chunks, b <- take 10 bs ])

-- A lazy accumulator builds a long chain of thunks (THUNK closures in -hT,
-- attributed to thunkLeak in -hc); it is forced only at the end.
thunkLeak :: Int -> IO Int
thunkLeak scale = do
  let n = 200000 * scale
  ref <- newMVar (0 :: Int)
  forM_ [1 .. n] $ \k -> do
    v <- takeMVar ref
    putMVar ref (v + k `mod` 3)          -- lazy: v + ... stays a thunk
    when (k `mod` 50000 == 0) (traceMarkerIO ("leak " ++ show k))
  v <- takeMVar ref
  -- the thunk chain stays unevaluated (and live) during the hold
  holding scale (evaluate v)

-- Two worker threads build an IntMap and a Seq concurrently.
twoThreads :: Int -> IO Int
twoThreads scale = do
  r1 <- newEmptyMVar
  r2 <- newEmptyMVar
  _ <- forkIO $ do
    let im = foldl' (\m k -> IM.insert (k * 7919 `mod` 1000003) [k, k + 1] m)
                    IM.empty [1 .. 60000 * scale]
    s <- evaluate (IM.foldl' (\acc xs -> acc + sum xs) 0 im `mod` 1000003)
    putMVar r1 (s + IM.size im)
  _ <- forkIO $ do
    let sq = foldl' (\q k -> q Seq.|> (k, show k)) Seq.empty [1 .. 50000 * scale]
    s <- evaluate (foldl' (\acc (k, str) -> acc + k + length str) 0 sq `mod` 1000003)
    putMVar r2 (s + Seq.length sq)
  a <- takeMVar r1
  b <- takeMVar r2
  holding scale (return (a + b))

-- Everything above is garbage now; allocate a lot of short-lived data so
-- the profile shows residency falling back to near zero.
release :: Int -> IO Int
release scale = do
  xs <- forM [1 .. 20 :: Int] $ \i ->
    evaluate (foldl' (+) 0 (map (* i) [1 .. 50000 * scale]))
  return (sum xs `mod` 1000003)

{-# LANGUAGE BangPatterns #-}
-- GCWork: a profiled workload that spends much of its time in the garbage
-- collector (about half of the samples of the committed run: a large
-- live Data.Map it rebuilds, which each major collection copies), for the
-- ccprofile package's tests of shares of the mutator's samples against
-- GHC's .prof (gcwork.prof, 245 ticks; the eventlog has 477 samples).
-- `build` inserts into the map, `query` looks keys up, `churn` allocates
-- short-lived lists.
--
-- Build and run (GHC 9.0.2 with profiling libraries), from this directory:
--   ghc -O2 -prof -fprof-auto -rtsopts -eventlog GCWork.hs -outputdir /tmp/gcwork/build -o /tmp/gcwork/gcwork
--   /tmp/gcwork/gcwork +RTS -l -p -A1m -olgcwork.eventlog -pogcwork -RTS
-- which writes gcwork.eventlog and gcwork.prof.
module Main (main) where

import qualified Data.Map.Strict as M
import Data.List (foldl')

build :: Int -> M.Map Int Int
build n = foldl' (\m i -> M.insert ((i * 7919) `mod` n) i m) M.empty [1 .. n]
{-# NOINLINE build #-}

query :: M.Map Int Int -> Int -> Int
query m n = foldl' (\acc i -> acc + M.findWithDefault 0 i m) 0 [1 .. n]
{-# NOINLINE query #-}

churn :: Int -> Int
churn n = sum (map length [replicate (i `mod` 50) 'x' | i <- [1 .. n]])
{-# NOINLINE churn #-}

main :: IO ()
main = do
  let rounds = [1 .. 3] :: [Int]
  rs <- mapM (\r -> do
                 let m = build (60000 + r)
                 let !q = query m 60000
                 let !c = churn 100000
                 return (q + c + M.size m)) rounds
  print (sum rs)

{-# LANGUAGE BangPatterns #-}
-- ProfDiff: two profiled runs whose cost-centre profiles differ in a known
-- way, for the differential flame graph's tests. `heavy` does the same
-- work in both; `light` does the program's argument times a million
-- iterations (20 in run A, 60 in run B), so its share grows in B and
-- heavy's shrinks.
--
-- Build and run (GHC 9.0.2 with profiling libraries), from this directory:
--   ghc -O2 -prof -fprof-auto -rtsopts -eventlog ProfDiff.hs -outputdir /tmp/analysis-gen/build-profdiff -o /tmp/analysis-gen/profdiff
--   /tmp/analysis-gen/profdiff 20 +RTS -l -p -olprofdiff-a.eventlog -poprofdiff-a -RTS
--   /tmp/analysis-gen/profdiff 60 +RTS -l -p -olprofdiff-b.eventlog -poprofdiff-b -RTS
module Main (main) where

import Control.Exception (evaluate)
import System.Environment (getArgs)

loop :: Int -> Int -> Int
loop k n = go 0 1
  where
    go !acc i
      | i > n = acc
      | otherwise = go ((acc * 31 + i * k) `rem` 1000003) (i + 1)
{-# NOINLINE loop #-}

heavy :: Int -> Int
heavy n = loop 3 (60 * n)
{-# NOINLINE heavy #-}

light :: Int -> Int -> Int
light m n = loop 5 (m * n)
{-# NOINLINE light #-}

main :: IO ()
main = do
  args <- getArgs
  let m = case args of
        (s : _) -> read s
        _ -> 20
      n = 1000000
  a <- evaluate (heavy n)
  b <- evaluate (light m n)
  print (a + b)

{-# LANGUAGE BangPatterns #-}
-- ProfWork: a workload whose cost-centre profile is known, for the
-- ccprofile package's tests. `main` calls `heavy` (about three fifths of
-- the work), `light` (about one fifth) and `outer`, whose time is split
-- between its own loop and `inner`. Every function is NOINLINE so that
-- -fprof-auto gives each its cost centre.
--
-- Build and run (GHC 9.0.2 with profiling libraries), from this directory:
--   ghc -O2 -prof -fprof-auto -rtsopts -eventlog ProfWork.hs -outputdir /tmp/analysis-gen/build-profwork -o /tmp/analysis-gen/profwork
--   /tmp/analysis-gen/profwork +RTS -l -p -olprofwork.eventlog -poprofwork -RTS
-- which writes profwork.eventlog and profwork.prof (GHC's own profile of
-- the same run, which the tests compare against).
module Main (main) where

import Control.Exception (evaluate)

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

light :: Int -> Int
light n = loop 5 (20 * n)
{-# NOINLINE light #-}

inner :: Int -> Int
inner n = loop 7 (10 * n)
{-# NOINLINE inner #-}

outer :: Int -> Int
outer n = loop 11 (10 * n) + inner n
{-# NOINLINE outer #-}

main :: IO ()
main = do
  let n = 1000000
  a <- evaluate (heavy n)
  b <- evaluate (light n)
  c <- evaluate (outer n)
  print (a + b + c)

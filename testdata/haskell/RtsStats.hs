-- RtsStats: parallel work (sparks) that allocates a lot and keeps a
-- changing set of live data, so that at -N2/-N4 the collections are
-- parallel and major ones copy: a run to set hecscope's RTS figures
-- against `+RTS -s`. Each round sparks 16 chunks (parMap rdeepseq), each
-- building and folding a Data.Map, and keeps the round's result in a
-- live map of the last 64 rounds. Made with (see
-- testdata/ghc-9.0.2/README.md):
--   ghc -O2 -threaded -rtsopts -eventlog RtsStats.hs -o rtsstats
--   ./rtsstats ROUNDS SIZE +RTS -N2 -A1m -l -olrun.eventlog -srun.txt -RTS
import Control.Exception (evaluate)
import Control.Parallel.Strategies (parMap, rdeepseq)
import Data.List (foldl')
import qualified Data.Map.Strict as M
import System.Environment (getArgs)

-- chunk builds a map of n keys from seed and sums it.
chunk :: Int -> Int -> Int
chunk seed n = M.foldl' (+) 0 m
  where
    m = foldl' (\acc i -> M.insert ((i * 7919 + seed) `mod` (2 * n)) i acc) M.empty [1 .. n]

main :: IO ()
main = do
  [roundsS, sizeS] <- getArgs
  let rounds = read roundsS :: Int
      size = read sizeS :: Int
      loop live r
        | r > rounds = return live
        | otherwise = do
            s <- evaluate (sum (parMap rdeepseq (\k -> chunk (r * 100 + k) size) [1 .. 16 :: Int]))
            let row = take 100 (iterate (\x -> (x * 31 + s) `mod` 1000003) r)
            live' <- evaluate (M.insert (r `mod` 64) (sum row `seq` row) live)
            loop live' (r + 1)
  live <- loop M.empty 1
  print (M.size live, sum (map sum (M.elems live)))

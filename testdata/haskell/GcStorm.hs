-- GcStorm: many short threads and heavy allocation, so that an eventlog
-- made with -N2 and a small nursery is mostly GC and scheduler events, and
-- its capabilities flush their 2 MiB buffers often, some of them inside
-- stat_endGC (the GC ends GHC back-dates into the previous block: see
-- ingest/blocktime.go). Each round forks 64 threads and keeps a changing
-- map of live data, so that collections copy. Made with:
--   ghc -O2 -threaded -rtsopts -eventlog GcStorm.hs -o gcstorm
--   ./gcstorm 25000  +RTS -N2 -l -A256k -RTS   # 173 MB, 8 s
--   ./gcstorm 150000 +RTS -N2 -l -A256k -RTS   # 1.04 GB
import Control.Concurrent
import Control.Monad
import qualified Data.Map.Strict as M
import Data.IORef
import System.Environment

work :: Int -> Int
work n = sum [ x * x `mod` 7 | x <- [1 .. n] ]

main :: IO ()
main = do
  [roundsS] <- getArgs
  let rounds = read roundsS :: Int
  live <- newIORef (M.empty :: M.Map Int [Int])
  forM_ [1 .. rounds] $ \r -> do
    done <- newEmptyMVar
    forM_ [1 .. 64 :: Int] $ \k -> forkIO $ do
      let v = work (200 + k * 10)
      v `seq` putMVar done v
    vs <- replicateM 64 (takeMVar done)
    -- Keep a changing set of live data, so that collections copy.
    modifyIORef' live (\m -> let m' = M.insert (r `mod` 2000) (take 50 (iterate (+ sum vs) r)) m in M.size m' `seq` m')
  m <- readIORef live
  print (M.size m, sum (map sum (M.elems m)))

{-# LANGUAGE BangPatterns #-}
-- | restart-fifo: writes its eventlog with the RTS file writer
-- (+RTS -l -olPATH) and restarts event logging N times (default 3) via
-- endEventLogging(); startEventLogging(&FileEventLogWriter).
-- Usage: restart-fifo [RESTARTS [MS_BETWEEN]] +RTS -N2 -l -olPATH -RTS
module Main (main) where

import Control.Concurrent
import Control.Exception (evaluate)
import Control.Monad
import Data.List (foldl')
import qualified Data.Map.Strict as M
import Debug.Trace (traceEventIO, traceMarkerIO)
import GHC.Conc (labelThread)
import System.Environment
import System.IO
import Text.Read (readMaybe)

foreign import ccall safe "restart_eventlog" c_restart :: IO Int

work :: Int -> IO ()
work i = do
  traceEventIO ("START work-" ++ show i)
  let m = M.fromList [(x, show x) | x <- [1 .. 20000 :: Int]]
  _ <- evaluate (M.foldl' (\a s -> a + length s) 0 m)
  traceEventIO ("STOP work-" ++ show i)

main :: IO ()
main = do
  args <- getArgs
  let nums = map readMaybe args :: [Maybe Int]
      restarts = case nums of (Just n : _) -> n; _ -> 3
      gapMs = case nums of (_ : Just n : _) -> n; _ -> 500
  myThreadId >>= flip labelThread "main"
  forM_ [0 .. restarts] $ \seg -> do
    when (seg > 0) $ do
      ok <- c_restart
      hPutStrLn stderr ("[restart-fifo] restart " ++ show seg ++ " -> startEventLogging returned " ++ show ok)
    traceMarkerIO ("segment " ++ show (seg + 1))
    dones <- forM [1 .. 2 :: Int] $ \w -> do
      d <- newEmptyMVar
      t <- forkIO $ replicateM_ 5 (work w) >> putMVar d ()
      labelThread t ("w" ++ show w ++ "-seg" ++ show (seg + 1))
      pure d
    mapM_ takeMVar dones
    threadDelay (gapMs * 1000)
  hPutStrLn stderr "[restart-fifo] done"

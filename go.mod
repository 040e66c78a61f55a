module github.com/hecscope/hecscope

go 1.25.0

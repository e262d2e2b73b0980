// tlog-check runs Go's reference implementations of signed notes (golang.org/x/mod/sumdb/note)
// and Merkle tree proofs (golang.org/x/mod/sumdb/tlog) on data the journal produced, so the
// journal's tests can show that standard verifiers accept its keys, notes and proofs.
//
// Build without modules, against the Debian package golang-golang-x-mod-dev:
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go run tools/tlog-check/main.go < requests
//
// Each input line is one request; each output line answers the request on the same line:
// "ok" followed by a result, or "error" followed by Go's error message. Fields are separated by
// single spaces; bytes are standard base64, lists are comma-separated ("-" for an empty list).
//
//	note <verifier key> <signed note>              ok <verified signer names, comma-separated>
//	record <size> <root> <index> <leaf line> <proof>   ok (tlog.CheckRecord of RecordHash(leaf line))
//	tree <old size> <old root> <new size> <new root> <proof>   ok (tlog.CheckTree)
//	keygen <name> <32-byte seed>                   ok <signer key> <verifier key> (note.GenerateKey)
//	sign <signer key> <text>                       ok <signed note> (note.Sign)
//	mirror <verifier key> <dir> <indexes> <old checkpoint file or ->   ok <size> <root>
//
// "mirror" reads a C2SP tlog-tiles folder alone, through a tlog.HashReader whose tile paths are
// mapped to tlog-tiles names ("tile/8/L/N" → "tile/L/N", "tile/8/data/N" → "tile/entries/N"):
// it opens the folder's checkpoint with the key, computes the root of its size (tlog.TreeHash,
// every tile checked against it by tlog.TileHashReader), builds the inclusion proof of each
// index (comma-separated) and checks it with tlog.CheckRecord against the entry read from the
// entry bundles, and, given an older checkpoint file of the same log, builds the consistency
// proof from it and checks it with tlog.CheckTree.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"io/ioutil"
	"path/filepath"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		result, err := answer(strings.Split(in.Text(), " "))
		if err != nil {
			fmt.Fprintf(out, "error %s\n", strings.ReplaceAll(err.Error(), "\n", " "))
		} else {
			fmt.Fprintf(out, "ok %s\n", result)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func answer(fields []string) (string, error) {
	need := map[string]int{"note": 3, "record": 6, "tree": 6, "keygen": 3, "sign": 3, "mirror": 5}
	if len(fields) == 0 || need[fields[0]] == 0 || len(fields) != need[fields[0]] {
		return "", fmt.Errorf("bad request %q", strings.Join(fields, " "))
	}
	switch fields[0] {
	case "note":
		verifier, err := note.NewVerifier(fields[1])
		if err != nil {
			return "", err
		}
		msg, err := decode(fields[2])
		if err != nil {
			return "", err
		}
		n, err := note.Open(msg, note.VerifierList(verifier))
		if err != nil {
			return "", err
		}
		names := []string{}
		for _, sig := range n.Sigs {
			names = append(names, sig.Name)
		}
		return strings.Join(names, ","), nil
	case "record":
		size, root, err := sizeAndHash(fields[1], fields[2])
		if err != nil {
			return "", err
		}
		index, err := strconv.ParseInt(fields[3], 10, 64)
		if err != nil {
			return "", err
		}
		leaf, err := decode(fields[4])
		if err != nil {
			return "", err
		}
		proof, err := hashes(fields[5])
		if err != nil {
			return "", err
		}
		return "", tlog.CheckRecord(tlog.RecordProof(proof), size, root, index, tlog.RecordHash(leaf))
	case "tree":
		oldSize, oldRoot, err := sizeAndHash(fields[1], fields[2])
		if err != nil {
			return "", err
		}
		newSize, newRoot, err := sizeAndHash(fields[3], fields[4])
		if err != nil {
			return "", err
		}
		proof, err := hashes(fields[5])
		if err != nil {
			return "", err
		}
		return "", tlog.CheckTree(tlog.TreeProof(proof), newSize, newRoot, oldSize, oldRoot)
	case "keygen":
		seed, err := decode(fields[2])
		if err != nil {
			return "", err
		}
		if len(seed) != 32 {
			return "", errors.New("a seed has 32 bytes")
		}
		skey, vkey, err := note.GenerateKey(bytes.NewReader(seed), fields[1])
		if err != nil {
			return "", err
		}
		return skey + " " + vkey, nil
	case "sign":
		signer, err := note.NewSigner(fields[1])
		if err != nil {
			return "", err
		}
		text, err := decode(fields[2])
		if err != nil {
			return "", err
		}
		msg, err := note.Sign(&note.Note{Text: string(text)}, signer)
		if err != nil {
			return "", err
		}
		return base64.StdEncoding.EncodeToString(msg), nil
	case "mirror":
		return checkMirror(fields[1], fields[2], fields[3], fields[4])
	}
	return "", errors.New("unreachable")
}

// dirTiles reads the tiles of a tlog-tiles folder for tlog.TileHashReader.
type dirTiles struct{ dir string }

func (d dirTiles) Height() int { return 8 }

func (d dirTiles) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	data := make([][]byte, len(tiles))
	for i, t := range tiles {
		b, err := ioutil.ReadFile(filepath.Join(d.dir, tlogTilesPath(t)))
		if err != nil {
			return nil, err
		}
		data[i] = b
	}
	return data, nil
}

func (d dirTiles) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

// tlogTilesPath maps Go's tile path (tile/H/L/N, tile/H/data/N) to tlog-tiles' (tile/L/N,
// tile/entries/N).
func tlogTilesPath(t tlog.Tile) string {
	p := strings.TrimPrefix(t.Path(), "tile/8/")
	if strings.HasPrefix(p, "data/") {
		p = "entries/" + strings.TrimPrefix(p, "data/")
	}
	return "tile/" + p
}

func openCheckpoint(verifier note.Verifier, file string) (int64, tlog.Hash, error) {
	msg, err := ioutil.ReadFile(file)
	if err != nil {
		return 0, tlog.Hash{}, err
	}
	n, err := note.Open(msg, note.VerifierList(verifier))
	if err != nil {
		return 0, tlog.Hash{}, err
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) < 4 || lines[0] != verifier.Name() {
		return 0, tlog.Hash{}, fmt.Errorf("malformed checkpoint %q", n.Text)
	}
	return sizeAndHash(lines[1], lines[2])
}

func checkMirror(vkey, dir, indexList, oldFile string) (string, error) {
	verifier, err := note.NewVerifier(vkey)
	if err != nil {
		return "", err
	}
	size, root, err := openCheckpoint(verifier, filepath.Join(dir, "checkpoint"))
	if err != nil {
		return "", err
	}
	reader := tlog.TileHashReader(tlog.Tree{N: size, Hash: root}, dirTiles{dir})
	th, err := tlog.TreeHash(size, reader)
	if err != nil {
		return "", err
	}
	if th != root {
		return "", fmt.Errorf("TreeHash(%d) = %v, checkpoint has %v", size, th, root)
	}
	if indexList != "-" {
		for _, field := range strings.Split(indexList, ",") {
			index, err := strconv.ParseInt(field, 10, 64)
			if err != nil {
				return "", err
			}
			proof, err := tlog.ProveRecord(size, index, reader)
			if err != nil {
				return "", err
			}
			bundle := tlog.Tile{H: 8, L: -1, N: index / 256, W: 256}
			if (index/256+1)*256 > size {
				bundle.W = int(size % 256)
			}
			entry, err := bundleEntry(filepath.Join(dir, tlogTilesPath(bundle)), int(index%256))
			if err != nil {
				return "", err
			}
			if err := tlog.CheckRecord(proof, size, th, index, tlog.RecordHash(entry)); err != nil {
				return "", fmt.Errorf("entry %d: %v", index, err)
			}
		}
	}
	if oldFile != "-" {
		oldSize, oldRoot, err := openCheckpoint(verifier, oldFile)
		if err != nil {
			return "", err
		}
		proof, err := tlog.ProveTree(size, oldSize, reader)
		if err != nil {
			return "", err
		}
		if err := tlog.CheckTree(proof, size, th, oldSize, oldRoot); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("%d %s", size, base64.StdEncoding.EncodeToString(th[:])), nil
}

// bundleEntry is entry k of the entry bundle file: big-endian uint16 length-prefixed entries.
func bundleEntry(file string, k int) ([]byte, error) {
	b, err := ioutil.ReadFile(file)
	if err != nil {
		return nil, err
	}
	for i := 0; len(b) >= 2; i++ {
		n := int(b[0])<<8 | int(b[1])
		if len(b) < 2+n {
			return nil, fmt.Errorf("%s: truncated entry %d", file, i)
		}
		if i == k {
			return b[2 : 2+n], nil
		}
		b = b[2+n:]
	}
	return nil, fmt.Errorf("%s: no entry %d", file, k)
}

func decode(field string) ([]byte, error) {
	return base64.StdEncoding.DecodeString(field)
}

func sizeAndHash(sizeField, hashField string) (int64, tlog.Hash, error) {
	size, err := strconv.ParseInt(sizeField, 10, 64)
	if err != nil {
		return 0, tlog.Hash{}, err
	}
	hash, err := tlog.ParseHash(hashField)
	return size, hash, err
}

func hashes(field string) ([]tlog.Hash, error) {
	list := []tlog.Hash{}
	if field == "-" {
		return list, nil
	}
	for _, text := range strings.Split(field, ",") {
		hash, err := tlog.ParseHash(text)
		if err != nil {
			return nil, err
		}
		list = append(list, hash)
	}
	return list, nil
}

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
	need := map[string]int{"note": 3, "record": 6, "tree": 6, "keygen": 3, "sign": 3}
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
	}
	return "", errors.New("unreachable")
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

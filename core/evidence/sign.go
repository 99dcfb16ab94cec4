package evidence

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"

	"github.com/mcptest/mcptest/internal/jsonx"
)

// KeyEnv names the environment variable holding the private key that
// signs packs.
const KeyEnv = "MCPTEST_EVIDENCE_KEY"

// Algorithm is the only signature algorithm a pack uses.
const Algorithm = "ed25519"

// signingContext is prefixed to the signed bytes, so a pack signature can
// never be replayed as a signature over anything else the key signs.
const signingContext = "mcptest-evidence-v1\n"

// ErrBadKey is wrapped when a key is not in a form mcptest reads. Its
// messages never include the key material.
var ErrBadKey = errors.New("unreadable ed25519 key")

// Signature is a pack's signature.
type Signature struct {
	// Algorithm is "ed25519".
	Algorithm string `json:"algorithm"`
	// PublicKey is the base64 of the 32-byte public key; KeyID the first
	// 16 hex digits of its sha256, for people to compare.
	PublicKey string `json:"public_key"`
	KeyID     string `json:"key_id"`
	// Value is the base64 of the 64-byte signature over the pack without
	// this field, in canonical JSON (sorted keys, no insignificant space).
	Value string `json:"value"`
}

// ParsePrivateKey reads a signing key: the base64 (standard or URL
// alphabet, padded or not) of a 32-byte ed25519 seed or of a 64-byte
// ed25519 private key, or a PKCS#8 PEM block ("PRIVATE KEY").
func ParsePrivateKey(text string) (ed25519.PrivateKey, error) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "-----BEGIN") {
		block, _ := pem.Decode([]byte(text))
		if block == nil {
			return nil, fmt.Errorf("%w: the PEM block does not parse", ErrBadKey)
		}
		if block.Type != "PRIVATE KEY" {
			return nil, fmt.Errorf("%w: a PEM %q block; want a PKCS#8 \"PRIVATE KEY\" (openssl genpkey -algorithm ed25519)", ErrBadKey, block.Type)
		}
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: PKCS#8: %w", ErrBadKey, err)
		}
		priv, ok := k.(ed25519.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("%w: the PKCS#8 key is a %T, not ed25519", ErrBadKey, k)
		}
		return priv, nil
	}
	raw, err := decodeBase64(text)
	if err != nil {
		return nil, fmt.Errorf("%w: neither a PEM block nor base64", ErrBadKey)
	}
	switch len(raw) {
	case ed25519.SeedSize:
		return ed25519.NewKeyFromSeed(raw), nil
	case ed25519.PrivateKeySize:
		priv := ed25519.PrivateKey(raw)
		// The second half must be the seed's public key, or signatures
		// would not verify against it.
		if !ed25519.NewKeyFromSeed(priv.Seed()).Equal(priv) {
			return nil, fmt.Errorf("%w: the 64-byte key's public half does not match its seed", ErrBadKey)
		}
		return priv, nil
	}
	return nil, fmt.Errorf("%w: base64 of %d bytes; want a 32-byte seed or a 64-byte private key", ErrBadKey, len(raw))
}

// ParsePublicKey reads a verification key: the base64 of the 32-byte
// public key (as a pack's signature.public_key holds it), or a PKIX PEM
// block ("PUBLIC KEY").
func ParsePublicKey(text string) (ed25519.PublicKey, error) {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "-----BEGIN") {
		block, _ := pem.Decode([]byte(text))
		if block == nil || block.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("%w: want a PEM \"PUBLIC KEY\" block (openssl pkey -pubout)", ErrBadKey)
		}
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: PKIX: %w", ErrBadKey, err)
		}
		pub, ok := k.(ed25519.PublicKey)
		if !ok {
			return nil, fmt.Errorf("%w: the public key is a %T, not ed25519", ErrBadKey, k)
		}
		return pub, nil
	}
	raw, err := decodeBase64(text)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("%w: want the base64 of a 32-byte ed25519 public key or a PEM \"PUBLIC KEY\" block", ErrBadKey)
	}
	return ed25519.PublicKey(raw), nil
}

// decodeBase64 accepts both alphabets, padded or not.
func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

// KeyID is the id a pack shows for pub: the first 16 hex digits of its
// sha256.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return shortHex(sum[:], 16)
}

// Sign signs p with priv, replacing any signature it had.
func Sign(p *Pack, priv ed25519.PrivateKey) error {
	p.Signature = nil
	raw, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("encode pack: %w", err)
	}
	msg, err := signedBytes(raw)
	if err != nil {
		return err
	}
	pub := priv.Public().(ed25519.PublicKey)
	p.Signature = &Signature{
		Algorithm: Algorithm,
		PublicKey: base64.StdEncoding.EncodeToString(pub),
		KeyID:     KeyID(pub),
		Value:     base64.StdEncoding.EncodeToString(ed25519.Sign(priv, msg)),
	}
	return nil
}

// signedBytes is what a signature covers: the context string and the
// canonical form of the pack document raw without its "signature" member.
// Every other member counts, known to this mcptest or not, so nothing can
// be added to a signed pack unnoticed.
func signedBytes(raw []byte) ([]byte, error) {
	v, err := jsonx.DecodeNumbers(raw)
	if err != nil {
		return nil, fmt.Errorf("decode pack: %w", err)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("the pack is not a JSON object")
	}
	delete(obj, "signature")
	body, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode pack: %w", err)
	}
	canon, err := jsonx.Canonical(body)
	if err != nil {
		return nil, fmt.Errorf("canonical pack: %w", err)
	}
	return append([]byte(signingContext), canon...), nil
}

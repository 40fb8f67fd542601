package io.mvsink.blob;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A self-signed certificate for 127.0.0.1 and localhost, made at test time: PEM files for a server
 * (Azurite's {@code --cert}/{@code --key}) and an SSL context that trusts that one certificate.
 *
 * @param certificate the certificate's PEM file
 * @param key         the private key's PEM file
 * @param trusted     the certificate itself
 */
record SelfSignedTls(Path certificate, Path key, X509Certificate trusted) {
    private static final Duration VALIDITY = Duration.ofDays(1);

    /** Makes the key pair and certificate and writes both PEM files into {@code dir}. */
    static SelfSignedTls forLocalhost(Path dir) throws IOException, GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        KeyPair pair = generator.generateKeyPair();
        X500Name name = new X500Name("CN=127.0.0.1");
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name, BigInteger.valueOf(now.toEpochMilli()),
            Date.from(now.minus(Duration.ofMinutes(5))), Date.from(now.plus(VALIDITY)), name, pair.getPublic());
        builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
            new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
        X509Certificate certificate;
        try {
            certificate = new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate())));
        } catch (org.bouncycastle.operator.OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
        Path certFile = pem(dir.resolve("azurite-cert.pem"), certificate);
        Path keyFile = pem(dir.resolve("azurite-key.pem"), pair.getPrivate());
        return new SelfSignedTls(certFile, keyFile, certificate);
    }

    /** An SSL context that trusts this certificate and no other. */
    SSLContext trustingContext() {
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            store.setCertificateEntry("azurite", trusted);
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot trust the test certificate", e);
        }
    }

    private static Path pem(Path file, Object object) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.US_ASCII);
             JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(object);
        }
        return file;
    }
}
